// Tool-call shaping: params to a tool call (names, arguments, other agents' shapes) and a
// ToolResult to the CallToolResult (reason in _meta on errors, structuredContent only on success,
// notes in text and in structuredContent's notes, resultType in 2026-07-28).
#include <doctest/doctest.h>

#include "server/tool_call.hpp"
#include "tests/unit/tools/fixture.hpp"

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
    Json no_name = {{"arguments", Json::object()}};
    CHECK(server::tool_call_params(no_name).error() == "Invalid params: tools/call needs \"name\", a string");

    tools_test::Fixture f;
    f.put("x.txt", "x\n");
    const tools::Registry registry;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, {});
    const auto call = [&](Json params) {
        auto read = server::tool_call_params(params);
        REQUIRE(read);
        return tools_test::run_to_end(f.io, bench.call(std::move(read->name), std::move(read->arguments), {}));
    };
    const tools::CallOutcome unknown = call({{"name", "frobnicate"}, {"arguments", "x"}});
    REQUIRE(unknown.invalid_params);  // an unknown tool is named before its arguments
    CHECK(unknown.invalid_params->rfind("Unknown tool: frobnicate. Available tools: ", 0) == 0);
    const tools::CallOutcome bad_args = call({{"name", "read"}, {"arguments", "x"}});
    CHECK(bad_args.invalid_params == "Invalid params: \"arguments\" must be an object");
    const tools::CallOutcome ok = call({{"name", "read"}, {"arguments", {{"file_path", f.path("x.txt")}}}});
    CHECK_FALSE(ok.invalid_params);
    CHECK(ok.tool == "read");
    CHECK_MESSAGE(!ok.result.is_error, ok.result.text);
    const tools::CallOutcome missing = call({{"name", "edit"}, {"arguments", Json::object()}});
    CHECK_FALSE(missing.invalid_params);
    REQUIRE(missing.result.is_error);
    CHECK(missing.result.reason == base::ErrorReason::invalid_arguments);
}
