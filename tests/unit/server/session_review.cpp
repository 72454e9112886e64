// The review view (MCP Apps) as the approval gate, through a whole session: a change awaits the
// human's decision and nothing is written; only the token in the result's _meta decides it, once;
// anything the model was shown is refused; a file changed before Apply is shown again; Reject and
// the decisions reach the model; the policy and "Apply all this session" write at once; a client
// that renders no view keeps the form.
#include <doctest/doctest.h>

#include "session_client.hpp"

using session_test::Client;
using session_test::Json;

namespace {

const Json apps = {{"extensions", {{"io.modelcontextprotocol/ui", {{"mimeTypes", {"text/html;profile=mcp-app"}}}}}}};

// Claude Desktop's session over a.txt ("one\n"), an edit of it awaiting review: its result.
Json pending_edit(Client& c, Json capabilities = apps) {
    c.initialize("2025-11-25", std::move(capabilities));
    c.put("a.txt", "one\n");
    c.request(2, "tools/call", Client::call_params("edit", c.edit_args()));
    return c.reply(2)["result"];
}

Json view_of(const Json& result) { return result.value("_meta", Json::object()).value("mcp-edit/review", Json()); }

Json decide(Client& c, int id, const Json& view, const std::string& decision, const std::string& feedback = "") {
    Json args = {{"review", view.value("review", "")}, {"token", view.value("token", "")}, {"decision", decision}};
    if (!feedback.empty()) args["feedback"] = feedback;
    c.request(id, "tools/call", Client::call_params("review", std::move(args)));
    return c.reply(id)["result"];
}

// The text of every content item and structuredContent, as the model could be shown them.
std::string model_visible(const Json& result) {
    std::string all = result.value("structuredContent", Json()).dump();
    for (const auto& item : result.value("content", Json::array())) all += item.value("text", "");
    return all;
}

}  // namespace

TEST_CASE("review view: the change awaits review, nothing is written, the token is only in _meta") {
    Client c;
    const Json r = pending_edit(c);
    CHECK_FALSE(r.value("isError", false));
    CHECK(r["structuredContent"]["approval"] == "pending");
    CHECK(r["content"][0]["text"].get<std::string>().rfind("Not written yet", 0) == 0);
    const Json view = view_of(r);
    REQUIRE(view.is_object());
    CHECK(view["state"] == "pending");
    CHECK(view["title"] == "edit of a.txt");
    CHECK(view["diff"].get<std::string>().find("-one\n+two\n") != std::string::npos);
    const std::string token = view["token"];
    CHECK(token.size() == 64);
    CHECK(model_visible(r).find(token) == std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
    CHECK(c.sent().empty());  // no form was asked
}

TEST_CASE("review view: Apply with the token writes the shown bytes, once") {
    Client c;
    const Json view = view_of(pending_edit(c));
    const Json applied = decide(c, 3, view, "apply", "looks right");
    CHECK_FALSE(applied.value("isError", false));
    CHECK(applied["structuredContent"]["outcome"] == "applied");
    CHECK(view_of(applied)["state"] == "applied");
    CHECK(view_of(applied)["approval"] == "user");
    CHECK(c.get("a.txt") == "two\n");
    // The same decision again (a replay) is refused and writes nothing.
    c.put("a.txt", "one\n");
    const Json replay = decide(c, 4, view, "apply");
    CHECK(replay.value("isError", false));
    CHECK(replay["content"][0]["text"].get<std::string>().find("already decided") != std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
    // The model hears of the decision in its next call, with the feedback.
    c.request(5, "tools/call", Client::call_params("read", {{"file_path", c.path("a.txt")}}));
    const std::string next = c.reply(5)["result"]["content"][0]["text"];
    CHECK(next.find("In the review view the user applied r1") != std::string::npos);
    CHECK(next.find("looks right") != std::string::npos);
}

TEST_CASE("review view: what the model could send is refused and writes nothing") {
    Client c;
    const Json r = pending_edit(c);
    const Json view = view_of(r);
    Json forged = view;
    const std::vector<std::string> forgeries = {
        std::string(), std::string("r1"), r["structuredContent"]["summary"].get<std::string>().substr(0, 64),
        std::string(64, '0'), view["token"].get<std::string>().substr(0, 63) + "x"};
    for (const auto& token : forgeries) {
        forged["token"] = token;
        const Json refused = decide(c, 3, forged, "apply");
        CHECK(refused.value("isError", false));
        CHECK(c.get("a.txt") == "one\n");
    }
    // Another change's token with this change's id.
    c.put("b.txt", "x\n");
    c.request(4, "tools/call",
              Client::call_params("edit", {{"file_path", c.path("b.txt")}, {"old_string", "x"}, {"new_string", "y"}}));
    Json other = view_of(c.reply(4)["result"]);
    other["review"] = view["review"];
    CHECK(decide(c, 5, other, "apply").value("isError", false));
    CHECK(c.get("a.txt") == "one\n");
    CHECK(c.get("b.txt") == "x\n");
    // The right token still works afterwards (a wrong one does not use it up).
    CHECK(decide(c, 6, view, "apply")["structuredContent"]["outcome"] == "applied");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE("review view: a second change of a file awaiting review is refused; other files go on") {
    Client c;
    pending_edit(c);
    c.request(3, "tools/call",
              Client::call_params("insert", {{"file_path", c.path("a.txt")}, {"line", -1}, {"text", "other"}}));
    const Json refused = c.reply(3)["result"];
    CHECK(refused.value("isError", false));
    CHECK(refused["content"][0]["text"].get<std::string>().find("still awaits the user's review") != std::string::npos);
    c.request(4, "tools/call", Client::call_params("write", {{"file_path", c.path("new.txt")}, {"content", "n\n"}}));
    CHECK(c.reply(4)["result"]["structuredContent"]["approval"] == "pending");
    CHECK(c.get("a.txt") == "one\n");
    CHECK_FALSE(std::filesystem::exists(c.root() / "new.txt"));
}

TEST_CASE("review view: a file changed before Apply is shown again, then the merged change is written") {
    Client c;
    c.initialize("2025-11-25", apps);
    c.put("a.txt", "one\nmiddle\nend\n");
    c.request(
        2, "tools/call",
        Client::call_params("edit", {{"file_path", c.path("a.txt")}, {"old_string", "one"}, {"new_string", "ONE"}}));
    const Json view = view_of(c.reply(2)["result"]);
    c.put("a.txt", "one\nmiddle\nend\nadded by the user\n");
    const Json again = decide(c, 3, view, "apply");
    CHECK(again["structuredContent"]["outcome"] == "shown_again");
    const Json shown = view_of(again);
    CHECK(shown["state"] == "pending");
    CHECK(shown["review"] != view["review"]);
    CHECK(shown["token"] != view["token"]);
    CHECK(shown["asked_again"].get<std::string>().find("changed") != std::string::npos);
    CHECK(c.get("a.txt") == "one\nmiddle\nend\nadded by the user\n");
    CHECK(decide(c, 4, shown, "apply")["structuredContent"]["outcome"] == "applied");
    CHECK(c.get("a.txt") == "ONE\nmiddle\nend\nadded by the user\n");
}

TEST_CASE("review view: Reject writes nothing and passes the feedback to the model") {
    Client c;
    const Json view = view_of(pending_edit(c));
    const Json rejected = decide(c, 3, view, "reject", "use three instead");
    CHECK(rejected["structuredContent"]["outcome"] == "rejected");
    CHECK(c.get("a.txt") == "one\n");
    c.request(4, "tools/call", Client::call_params("list", Json::object()));
    const std::string next = c.reply(4)["result"]["content"][0]["text"];
    CHECK(next.find("rejected edit of a.txt (r1)") != std::string::npos);
    CHECK(next.find("use three instead") != std::string::npos);
    // The file is free again: the next change awaits review.
    c.request(5, "tools/call", Client::call_params("edit", c.edit_args()));
    CHECK(c.reply(5)["result"]["structuredContent"]["approval"] == "pending");
}

TEST_CASE("review view: Apply all this session writes later changes at once, shown as written") {
    Client c;
    const Json view = view_of(pending_edit(c));
    CHECK(decide(c, 3, view, "apply_session")["structuredContent"]["outcome"] == "applied");
    c.request(
        4, "tools/call",
        Client::call_params("edit", {{"file_path", c.path("a.txt")}, {"old_string", "two"}, {"new_string", "three"}}));
    const Json r = c.reply(4)["result"];
    CHECK(r["structuredContent"]["approval"] == "session");
    CHECK(view_of(r)["state"] == "written");
    CHECK(c.get("a.txt") == "three\n");
}

TEST_CASE("review view: --approval auto writes at once; the view shows it written, with Undo") {
    Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::automatic; });
    const Json r = pending_edit(c);
    CHECK(r["structuredContent"]["approval"] == "policy");
    const Json view = view_of(r);
    CHECK(view["state"] == "written");
    CHECK_FALSE(view.contains("token"));
    REQUIRE(view["undo"].size() == 1);
    const std::string undo = view["undo"][0];
    CHECK(undo.size() > 6);
    CHECK(undo.substr(undo.size() - 6) == "/a.txt");  // the real path (drive and forward slashes on Windows)
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE("review view: --approval require is served by the view") {
    Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::require; });
    const Json view = view_of(pending_edit(c));
    CHECK(c.get("a.txt") == "one\n");
    CHECK(decide(c, 3, view, "apply")["structuredContent"]["outcome"] == "applied");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE("review view: a client with both chooses by --approval-ui; one without MCP Apps keeps the form") {
    Json both = apps;
    both["elicitation"] = Json::object();
    {
        Client c;  // default: the view
        CHECK(view_of(pending_edit(c, both))["state"] == "pending");
    }
    {
        Client c([](server::Config& config) { config.approval_ui = server::ApprovalUi::form; });
        c.initialize("2025-11-25", both);
        c.put("a.txt", "one\n");
        c.request(2, "tools/call", Client::call_params("edit", c.edit_args()));
        CHECK(c.server_request("elicitation/create").contains("id"));
    }
    {
        Client c;  // no MCP Apps: tools/list keeps the decision tool from the model
        c.initialize("2025-11-25", {{"elicitation", Json::object()}});
        c.request(1, "tools/list");
        const Json listed = c.reply(1);
        REQUIRE(listed["result"]["tools"].size() == 13);
        for (const auto& tool : listed["result"]["tools"]) CHECK(tool["name"] != "review");
    }
}

TEST_CASE("review view: 2026-07-28, the request's client capabilities choose the view") {
    Client c;
    c.put("a.txt", "one\n");
    Json params = Client::call_params("edit", c.edit_args());
    params["_meta"] = Client::modern_meta(apps);
    c.request(1, "tools/call", params);
    const Json r = c.reply(1)["result"];
    CHECK(r["resultType"] == "complete");
    const Json view = view_of(r);
    CHECK(view["state"] == "pending");
    Json decision =
        Client::call_params("review", {{"review", view["review"]}, {"token", view["token"]}, {"decision", "apply"}});
    decision["_meta"] = Client::modern_meta(apps);
    c.request(2, "tools/call", decision);
    CHECK(c.reply(2)["result"]["structuredContent"]["outcome"] == "applied");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE(
    "review view: Qwen Code declares MCP Apps but renders no view in its terminal: served as a client without one") {
    Client c;
    c.request(0, "initialize",
              {{"protocolVersion", "2025-11-25"},
               {"capabilities", apps},
               {"clientInfo", {{"name", "qwen-cli-mcp-client-edit"}, {"version", "0.0.1"}}}});
    c.reply(0);
    c.notify("notifications/initialized");
    c.put("a.txt", "one\n");
    c.request(1, "tools/list");
    const Json listed = c.reply(1);
    for (const auto& tool : listed["result"]["tools"]) CHECK(tool["name"] != "review");
    c.request(2, "tools/call", Client::call_params("edit", c.edit_args()));
    const Json r = c.reply(2)["result"];
    CHECK(r["structuredContent"]["approval"] == "policy");  // --approval ask, nothing can ask: written, as before
    CHECK_FALSE(r.value("_meta", Json::object()).contains("mcp-edit/review"));
    CHECK(c.get("a.txt") == "two\n");
}
