// Tool-call shaping: params to a tool call (names, arguments, other agents' shapes) and a
// ToolResult to the CallToolResult (reason in _meta on errors, structuredContent only on success,
// notes in text and in structuredContent's notes, resultType in 2026-07-28).
#include <doctest/doctest.h>

#include "server/tool_call.hpp"

using Json = nlohmann::json;

TEST_CASE("tool call: an error carries its reason in _meta and no structuredContent") {
    tools::ToolResult r = tools::ToolResult::error("Nope.", base::ErrorReason::conflict);
    r.structured = {{"x", 1}};
    const Json j = server::call_tool_result(r, protocol::Era::legacy);
    CHECK(j["isError"] == true);
    CHECK(j["content"][0]["text"] == "Nope.");
    CHECK(j["_meta"][base::reason_meta_key] == "conflict");
    CHECK_FALSE(j.contains("structuredContent"));
    CHECK_FALSE(j.contains("resultType"));
}

TEST_CASE("tool call: success keeps structuredContent and extra text; 2026-07-28 adds resultType") {
    tools::ToolResult r;
    r.text = "done";
    r.extra_text = "more";
    r.structured = {{"notes", Json::array()}};
    server::add_note(r, "A note.");
    const Json j = server::call_tool_result(r, protocol::Era::modern);
    CHECK(j["content"][0]["text"] == "done\n\nA note.");
    CHECK(j["content"][1]["text"] == "more");
    CHECK(j["structuredContent"]["notes"] == Json::array({"A note."}));
    CHECK(j["resultType"] == "complete");
    CHECK_FALSE(j.contains("isError"));
}

TEST_CASE("tool call: an empty notes list is left out of structuredContent, other fields kept") {
    tools::ToolResult r;
    r.text = "Changed a.txt (+1 -1).";
    r.structured = {{"notes", Json::array()}, {"summary", "Changed a.txt (+1 -1)."}};
    server::add_note(r, "");
    const Json j = server::call_tool_result(r, protocol::Era::legacy);
    CHECK_FALSE(j["structuredContent"].contains("notes"));
    CHECK(j["structuredContent"]["summary"] == "Changed a.txt (+1 -1).");
}

TEST_CASE("tool call: name and arguments are checked before anything runs") {
    const tools::Registry registry;
    Json no_name = {{"arguments", Json::object()}};
    CHECK(server::resolve_tool_call(registry, no_name).error() ==
          "Invalid params: tools/call needs \"name\", a string");
    Json unknown = {{"name", "frobnicate"}};
    CHECK(
        server::resolve_tool_call(registry, unknown).error().rfind("Unknown tool: frobnicate. Available tools: ", 0) ==
        0);
    Json bad_args = {{"name", "read"}, {"arguments", "x"}};
    CHECK(server::resolve_tool_call(registry, bad_args).error() == "Invalid params: \"arguments\" must be an object");
    Json ok = {{"name", "read"}, {"arguments", {{"file_path", "/tmp/x"}}}};
    auto call = server::resolve_tool_call(registry, ok);
    REQUIRE(call);
    CHECK(call->name == "read");
    CHECK_FALSE(server::check_arguments(registry, *call));
    Json missing = {{"name", "edit"}, {"arguments", Json::object()}};
    auto wrong = server::resolve_tool_call(registry, missing);
    REQUIRE(wrong);
    const auto refused = server::check_arguments(registry, *wrong);
    REQUIRE(refused);
    CHECK(refused->reason == base::ErrorReason::invalid_arguments);
}
