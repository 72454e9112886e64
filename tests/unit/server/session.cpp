// The session driven in process through a fake transport: the era chosen by the first request,
// batches (2025-03-26 only), one reply per request, cancellation, unknown methods, malformed
// input, and the client's roots asked with roots/list.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#ifdef _WIN32
#include <windows.h>
#include <tlhelp32.h>
#endif

#include "session_client.hpp"

using session_test::Client;
using session_test::Json;

namespace {

// The threads this process has now.
std::size_t threads_now() {
#ifdef _WIN32
    const HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
    THREADENTRY32 entry{};
    entry.dwSize = sizeof entry;
    std::size_t n = 0;
    for (bool more = Thread32First(snapshot, &entry); more; more = Thread32Next(snapshot, &entry))
        if (entry.th32OwnerProcessID == GetCurrentProcessId()) ++n;
    CloseHandle(snapshot);
    return n;
#else
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& task : std::filesystem::directory_iterator("/proc/self/task")) ++n;
    return n;
#endif
}

}  // namespace

TEST_CASE("session: a session that ended leaves no thread behind (asio's timer thread is joined)") {
    // On Windows each io_context has a timer thread; when asio's thread type differed between the
    // files that made and shut down the io_context, it was never joined and wrote into freed memory.
    const auto one_session = [] {
        Client c;
        c.initialize("2025-11-25", {{"roots", Json::object()}});
        c.request(1, "ping");
        CHECK(c.reply(1)["result"] == Json::object());
    };
    one_session();
    const std::size_t after_first = threads_now();
    for (int i = 0; i < 3; ++i) one_session();
    CHECK(threads_now() == after_first);
}

TEST_CASE("session: initialize chooses a legacy era; a second initialize is refused") {
    Client c;
    const Json r = c.initialize("2025-06-18");
    CHECK(r["result"]["protocolVersion"] == "2025-06-18");
    CHECK(r["result"]["capabilities"].contains("logging"));
    CHECK(r["result"]["serverInfo"]["name"] == "mcp-edit");
    c.request(1, "initialize", {{"protocolVersion", "2025-06-18"}});
    CHECK(c.reply(1)["error"]["code"] == -32600);
    c.request(2, "tools/list");
    const Json tools = c.reply(2)["result"];
    CHECK(tools["tools"].is_array());
    CHECK_FALSE(tools.contains("resultType"));
}

TEST_CASE("session: an unknown protocol version in initialize gets the newest legacy one") {
    Client c;
    CHECK(c.initialize("1999-01-01")["result"]["protocolVersion"] == std::string(protocol::legacy_versions.front()));
}

TEST_CASE("session: per-request _meta chooses 2026-07-28; initialize is then refused") {
    Client c;
    c.request(1, "tools/list", {{"_meta", Client::modern_meta()}});
    const Json r = c.reply(1)["result"];
    CHECK(r["resultType"] == "complete");
    CHECK(r["cacheScope"] == "private");
    c.request(2, "initialize", {{"protocolVersion", "2025-11-25"}});
    CHECK(c.reply(2)["error"]["message"].get<std::string>().find("has no initialize") != std::string::npos);
    c.request(3, "logging/setLevel", {{"level", "info"}, {"_meta", Client::modern_meta()}});
    CHECK(c.reply(3)["error"]["message"] == "Method not found: logging/setLevel (not part of protocol 2026-07-28)");
}

TEST_CASE("session: server/discover answers in any era without choosing one; a wrong modern version is named") {
    Client c;
    c.request(1, "server/discover");
    const Json d = c.reply(1)["result"];
    CHECK(d["supportedVersions"][0] == "2026-07-28");
    Json meta = Client::modern_meta();
    meta[std::string(protocol::meta_protocol_version)] = "2030-01-01";
    c.request(2, "tools/list", {{"_meta", meta}});
    const Json e = c.reply(2)["error"];
    CHECK(e["code"] == protocol::unsupported_protocol_version);
    CHECK(e["data"]["requested"] == "2030-01-01");
    // Not yet decided: a legacy initialize is still accepted.
    CHECK(c.initialize()["result"].contains("protocolVersion"));
}

TEST_CASE("session: before initialize, ping works, known methods ask for initialize, others are not found") {
    Client c;
    c.request(1, "ping");
    CHECK(c.reply(1)["result"] == Json::object());
    c.request(2, "tools/list");
    CHECK(c.reply(2)["error"]["message"].get<std::string>().find("server not initialized") != std::string::npos);
    c.request(3, "sampling/whatever");
    CHECK(c.reply(3)["error"]["code"] == -32601);
}

TEST_CASE("session: the known methods come from the method tables") {
    const auto& known = server::Session::known_methods();
    for (const char* method :
         {"initialize", "ping", "tools/list", "tools/call", "logging/setLevel", "server/discover", "resources/list",
          "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/list"})
        CHECK(std::find(known.begin(), known.end(), method) != known.end());
    CHECK(known.size() == 12);
}

TEST_CASE("session: batches under 2025-03-26 are answered as one array; other versions refuse them") {
    Client old_client;
    old_client.initialize("2025-03-26");
    old_client.send_line(
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"ping"}])");
    auto replies = old_client.wait_for([](const Json& m) { return m.is_array(); });
    REQUIRE(replies);
    CHECK(replies->size() == 2);
    old_client.send_line("[]");
    CHECK(old_client.reply(nullptr)["error"]["message"] == "Invalid Request: empty batch");

    Client c;
    c.initialize("2025-11-25");
    c.send_line(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
    CHECK(c.reply(nullptr)["error"]["message"].get<std::string>().find("only under protocol version 2025-03-26") !=
          std::string::npos);
}

TEST_CASE("session: malformed lines get a parse error or an invalid request with a null id") {
    Client c;
    c.send_line("{not json");
    CHECK(c.reply(nullptr)["error"]["code"] == -32700);
    c.send_line(R"({"jsonrpc":"2.0","id":7})");
    CHECK(c.reply(7)["error"]["code"] == -32600);
    c.transport().receiver.on_oversized(99999999);
    CHECK(c.reply(nullptr)["error"]["message"].get<std::string>().find("over the limit") != std::string::npos);
}

TEST_CASE("session: logging/setLevel takes MCP's eight names and forwards records at that level") {
    Client c;
    c.initialize();
    for (const char* level : {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}) {
        c.request(level, "logging/setLevel", {{"level", level}});
        CHECK(c.reply(level)["result"] == Json::object());
    }
    for (const char* level : {"warn", "trace", "off", "err", ""}) {
        c.request(level, "logging/setLevel", {{"level", level}});
        CHECK(c.reply(level)["error"]["code"] == -32602);
    }
    c.request(1, "logging/setLevel", {{"level", "notice"}});
    c.reply(1);
    c.session().forward_log(base::log::Level::debug, "t", "hidden");
    c.session().forward_log(base::log::Level::warn, "t", "shown");
    const Json note = c.notification("notifications/message");
    CHECK(note["params"]["level"] == "warning");
    CHECK(note["params"]["data"] == "shown");
    CHECK(c.drain().empty());
}

TEST_CASE("session: one reply per request; an id in use is refused without disturbing the first") {
    Client c;
    c.start_legacy_edit();
    const Json form = c.server_request("elicitation/create");
    REQUIRE(form.contains("id"));
    c.request(2, "ping");  // while call 2 waits for the form
    CHECK(c.reply(2)["error"]["message"].get<std::string>().find("already in use") != std::string::npos);
    c.respond(form["id"], {{"action", "accept"}, {"content", {{"decision", "apply"}}}});
    const Json r = c.reply(2);
    CHECK(r["result"]["structuredContent"]["approval"] == "user");
    CHECK(c.get("a.txt") == "two\n");
    // No second reply to 2, and a second answer to the same form changes nothing.
    c.respond(form["id"], {{"action", "decline"}});
    for (const auto& m : c.drain()) CHECK_FALSE((m.is_object() && m.value("id", Json()) == 2));
}

TEST_CASE("session: notifications/cancelled drops the reply and withdraws the form; nothing is written") {
    Client c;
    c.start_legacy_edit();
    const Json form = c.server_request("elicitation/create");
    c.notify("notifications/cancelled", {{"requestId", 2}, {"reason", "user pressed stop"}});
    const Json withdrawn = c.notification("notifications/cancelled");
    CHECK(withdrawn["params"]["requestId"] == form["id"]);
    CHECK(withdrawn["params"]["reason"] == "the tool call was cancelled");
    for (const auto& m : c.drain()) CHECK_FALSE((m.is_object() && m.value("id", Json()) == 2));
    CHECK(c.get("a.txt") == "one\n");
    // The id is free again.
    c.request(2, "ping");
    CHECK(c.reply(2)["result"] == Json::object());
}

// A file:// URI for a local path: file:///tmp/x, file:///C:/Users/x.
static std::string file_uri(const std::filesystem::path& path) {
    const std::string generic = path.generic_string();
    return (generic.starts_with("/") ? "file://" : "file:///") + generic;
}

TEST_CASE("session: a client that declares roots is asked with roots/list; its roots narrow --root") {
    Client c;
    c.initialize("2025-11-25", {{"roots", {{"listChanged", true}}}});
    std::filesystem::create_directories(c.root() / "sub");
    c.put("sub/in.txt", "in\n");
    c.put("out.txt", "out\n");
    c.request(1, "tools/call", Client::call_params("read", {{"file_path", c.path("sub/in.txt")}}));
    const Json ask = c.server_request("roots/list");
    REQUIRE(ask.contains("id"));
    c.respond(ask["id"], {{"roots", {{{"uri", file_uri(c.root() / "sub")}}}}});
    CHECK_FALSE(c.reply(1)["result"].value("isError", false));
    // Known now: no second roots/list, and the file outside the client's root is refused.
    c.request(2, "tools/call", Client::call_params("read", {{"file_path", c.path("out.txt")}}));
    Json refused = c.reply(2)["result"];
    CHECK(refused.value("isError", false));
    CHECK(refused.value("_meta", Json::object()).value(base::reason_meta_key, "") == "outside_root");
    CHECK(refused["content"][0].value("text", "").find("outside the allowed roots") != std::string::npos);
    // After list_changed the next call asks again.
    c.notify("notifications/roots/list_changed");
    c.request(3, "tools/call", Client::call_params("read", {{"file_path", c.path("sub/in.txt")}}));
    const Json again = c.server_request("roots/list");
    c.respond(again["id"], {{"roots", {{{"uri", file_uri(c.root())}}}}});
    CHECK_FALSE(c.reply(3)["result"].value("isError", false));
}

TEST_CASE("session: unknown tools and malformed tools/call params are invalid params") {
    Client c;
    c.initialize();
    c.request(1, "tools/call", {{"name", "nope"}});
    CHECK(c.reply(1)["error"]["message"].get<std::string>().rfind("Unknown tool: nope. Available tools: ", 0) == 0);
    c.request(2, "tools/call", {{"arguments", Json::object()}});
    CHECK(c.reply(2)["error"]["code"] == -32602);
    c.request(3, "tools/call", {{"name", "read"}, {"arguments", 5}});
    CHECK(c.reply(3)["error"]["message"] == "Invalid params: \"arguments\" must be an object");
}
