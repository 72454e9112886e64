// The session's changes as resources, in process: resources/list and resources/read after
// edits (legacy and 2026-07-28), subscriptions and their notifications, list_changed only for a
// client that looked at the resources, unknown URIs and cursors, prompts/list.
#include <doctest/doctest.h>

#include "session_client.hpp"

using session_test::Client;
using session_test::Json;

namespace {

Json edit(Client& c, int id, const std::string& file, const std::string& from, const std::string& to,
          bool modern = false) {
    Json params = Client::call_params("edit", {{"file_path", c.path(file)}, {"old_string", from}, {"new_string", to}});
    if (modern) params["_meta"] = Client::modern_meta();
    c.request(id, "tools/call", params);
    return c.reply(id);
}

std::size_t count(const Client& c, const std::string& method) {
    std::size_t n = 0;
    for (const auto& line : c.sent())
        if (line.find("\"method\":\"" + method + "\"") != std::string::npos) ++n;
    return n;
}

}  // namespace

TEST_CASE("session resources: list and read the session patch and a file's diff after edits (legacy)") {
    Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::automatic; });
    const Json init = c.initialize();
    CHECK(init["result"]["capabilities"]["resources"] == Json({{"subscribe", true}, {"listChanged", true}}));
    c.put("a.txt", "one\n");
    c.request(1, "resources/list");
    Json list = c.reply(1)["result"];
    REQUIRE(list["resources"].size() == 1);
    CHECK(list["resources"][0]["uri"] == "mcp-edit://session/patch");

    c.request(2, "resources/subscribe", {{"uri", "mcp-edit://session/patch"}});
    CHECK(c.reply(2)["result"] == Json::object());
    CHECK_FALSE(edit(c, 3, "a.txt", "one", "two")["result"].value("isError", false));
    CHECK(c.notification("notifications/resources/updated")["params"]["uri"] == "mcp-edit://session/patch");
    // The first change made the file's resource: the list changed (waited for, not assumed).
    CHECK(c.notification("notifications/resources/list_changed")["method"] == "notifications/resources/list_changed");
    CHECK_FALSE(edit(c, 4, "a.txt", "two", "three")["result"].value("isError", false));

    c.request(5, "resources/list");
    list = c.reply(5)["result"];
    REQUIRE(list["resources"].size() == 2);
    const std::string file_uri = list["resources"][1]["uri"];
    CHECK(file_uri.rfind("mcp-edit://session/file/", 0) == 0);
    CHECK(list["resources"][1]["name"] == "a.txt");
    CHECK(list["resources"][1]["mimeType"] == "text/x-diff");

    c.request(6, "resources/read", {{"uri", "mcp-edit://session/patch"}});
    const Json read = c.reply(6)["result"];
    CHECK(read["contents"][0]["text"] == "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+three\n");
    CHECK_FALSE(read.contains("resultType"));
    c.request(7, "resources/read", {{"uri", file_uri}});
    CHECK(c.reply(7)["result"]["contents"][0]["text"] == "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+three\n");
    // Not yet taken: the update of the second change; no second list_changed (the file was new once).
    CHECK(count(c, "notifications/resources/list_changed") == 0);
    CHECK(count(c, "notifications/resources/updated") == 1);

    c.request(8, "resources/read", {{"uri", "mcp-edit://session/file/nope"}});
    CHECK(c.reply(8)["error"]["code"] == -32002);
    c.request(9, "resources/list", {{"cursor", "bogus"}});
    CHECK(c.reply(9)["error"]["code"] == -32602);
    c.request(10, "prompts/list");
    CHECK(c.reply(10)["result"] == Json({{"prompts", Json::array()}}));
    c.request(11, "resources/unsubscribe", {{"uri", "mcp-edit://session/patch"}});
    CHECK(c.reply(11)["result"] == Json::object());
    // Unsubscribed: the change is made (its reply waited for) and no update follows it.
    const Json fourth = edit(c, 12, "a.txt", "three", "four");
    REQUIRE_MESSAGE(fourth.contains("result"), fourth.dump());
    CHECK_FALSE(fourth["result"].value("isError", false));
    CHECK(c.get("a.txt") == "four\n");
    c.request(13, "ping");
    CHECK(c.reply(13)["result"] == Json::object());
    CHECK(count(c, "notifications/resources/updated") == 1);
}

TEST_CASE("session resources: a client that never looked at resources gets no notifications") {
    Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::automatic; });
    c.initialize();
    c.put("a.txt", "one\n");
    const Json changed = edit(c, 1, "a.txt", "one", "two");
    REQUIRE_MESSAGE(changed.contains("result"), changed.dump());
    CHECK_FALSE(changed["result"].value("isError", false));
    c.request(2, "ping");
    CHECK(c.reply(2)["result"] == Json::object());
    CHECK(count(c, "notifications/resources/list_changed") == 0);
    CHECK(count(c, "notifications/resources/updated") == 0);
}

TEST_CASE("session resources: the 2026-07-28 era lists and reads them with its result fields") {
    Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::automatic; });
    c.put("b.txt", "x\n");
    const Json changed = edit(c, 1, "b.txt", "x", "y", true);
    REQUIRE_MESSAGE(changed.contains("result"), changed.dump());
    CHECK_FALSE(changed["result"].value("isError", false));
    c.request(2, "resources/list", {{"_meta", Client::modern_meta()}});
    const Json list = c.reply(2)["result"];
    CHECK(list["resultType"] == "complete");
    CHECK(list["cacheScope"] == "private");
    CHECK(list["resources"].size() == 2);
    c.request(3, "resources/read", {{"uri", "mcp-edit://session/patch"}, {"_meta", Client::modern_meta()}});
    const Json read = c.reply(3)["result"];
    CHECK(read["resultType"] == "complete");
    CHECK(read["contents"][0]["text"] == "--- a/b.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-x\n+y\n");
    c.request(4, "resources/subscribe", {{"uri", "mcp-edit://session/patch"}, {"_meta", Client::modern_meta()}});
    CHECK(c.reply(4)["error"]["code"] == -32601);
}
