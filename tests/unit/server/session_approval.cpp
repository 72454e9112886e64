// Every outcome of the approval gate through a whole session: the legacy eras' elicitation/create
// round trip (accept, apply for the session, decline, cancel, an error, no answer in time) and
// 2026-07-28's input_required with a signed requestState (accept, decline, altered, expired,
// another call's state), and the policy when no form can be shown.
#include <doctest/doctest.h>

#include <thread>

#include "session_client.hpp"

using session_test::Client;
using session_test::Json;

namespace {

const Json elicit = {{"elicitation", Json::object()}};

std::string reason_of(const Json& result) {
    return result.value("_meta", Json::object()).value(base::reason_meta_key, "");
}

// The result of the legacy edit once the form is answered with `answer`.
Json answer_form(Client& c, Json answer) {
    const Json form = c.server_request("elicitation/create");
    REQUIRE(form.contains("id"));
    CHECK(form["params"]["mode"] == "form");
    c.respond(form["id"], std::move(answer));
    return c.reply(2)["result"];
}

}  // namespace

TEST_CASE("approval, legacy: apply writes (approval user)") {
    Client c;
    c.start_legacy_edit();
    const Json r = answer_form(c, {{"action", "accept"}, {"content", {{"decision", "apply"}, {"feedback", "fine"}}}});
    CHECK(r["structuredContent"]["approval"] == "user");
    CHECK(r["structuredContent"]["feedback"] == "fine");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE("approval, legacy: apply for the session stops asking") {
    Client c;
    c.start_legacy_edit();
    answer_form(c, {{"action", "accept"}, {"content", {{"decision", "apply_session"}}}});
    c.request(
        3, "tools/call",
        Client::call_params("edit", {{"file_path", c.path("a.txt")}, {"old_string", "two"}, {"new_string", "three"}}));
    CHECK(c.reply(3)["result"]["structuredContent"]["approval"] == "session");
    CHECK(c.get("a.txt") == "three\n");
}

TEST_CASE("approval, legacy: decline and reject refuse; cancel is a cancellation; nothing is written") {
    for (const auto& [answer, reason] :
         {std::pair{Json{{"action", "decline"}}, "rejected"},
          std::pair{Json{{"action", "accept"}, {"content", {{"decision", "reject"}}}}, "rejected"},
          std::pair{Json{{"action", "cancel"}}, "cancelled"}}) {
        Client c;
        c.start_legacy_edit();
        const Json r = answer_form(c, answer);
        CHECK(r["isError"] == true);
        CHECK(reason_of(r) == reason);
        CHECK_FALSE(r.contains("structuredContent"));
        CHECK(c.get("a.txt") == "one\n");
    }
}

TEST_CASE("approval, legacy: an error answer means the form could not be shown") {
    Client c;
    c.start_legacy_edit();
    const Json form = c.server_request("elicitation/create");
    c.send({{"jsonrpc", "2.0"}, {"id", form["id"]}, {"error", {{"code", -32601}, {"message", "no forms here"}}}});
    const Json r = c.reply(2)["result"];
    CHECK(reason_of(r) == "approval_unavailable");
    CHECK(r["content"][0]["text"].get<std::string>().find("no forms here") != std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
}

TEST_CASE("approval, legacy: no answer in time counts as rejected and withdraws the form") {
    Client c([](server::Config& config) { config.approval_timeout = std::chrono::milliseconds(30); });
    c.start_legacy_edit();
    const Json form = c.server_request("elicitation/create");
    const Json r = c.reply(2)["result"];
    CHECK(reason_of(r) == "timeout");
    const Json withdrawn = c.notification("notifications/cancelled");
    CHECK(withdrawn["params"]["requestId"] == form["id"]);
    CHECK(withdrawn["params"]["reason"] == "no answer in time");
    CHECK(c.get("a.txt") == "one\n");
}

TEST_CASE("approval, legacy: without elicitation the policy decides (ask writes, require refuses, auto writes)") {
    {
        Client c;
        c.start_legacy_edit(Json::object());
        const Json r = c.reply(2)["result"];
        CHECK(r["structuredContent"]["approval"] == "policy");
        CHECK(r["content"][0]["text"].get<std::string>().find("Written without asking") != std::string::npos);
    }
    {
        Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::require; });
        c.start_legacy_edit(Json::object());
        CHECK(reason_of(c.reply(2)["result"]) == "approval_unavailable");
        CHECK(c.get("a.txt") == "one\n");
    }
    {
        Client c([](server::Config& config) { config.approval = server::ApprovalPolicy::automatic; });
        c.start_legacy_edit();  // can elicit, but the policy does not ask
        CHECK(c.reply(2)["result"]["structuredContent"]["approval"] == "policy");
        CHECK(c.get("a.txt") == "two\n");
    }
}

namespace {

// A 2026-07-28 session that has read a.txt ("one\n"); returns the input_required of an edit.
Json modern_first_round(Client& c, int id = 2) {
    c.put("a.txt", "one\n");
    c.request(
        1, "tools/call",
        {{"name", "read"}, {"arguments", {{"file_path", c.path("a.txt")}}}, {"_meta", Client::modern_meta(elicit)}});
    c.reply(1);
    c.request(id, "tools/call",
              {{"name", "edit"}, {"arguments", c.edit_args()}, {"_meta", Client::modern_meta(elicit)}});
    return c.reply(id)["result"];
}

Json modern_retry(Client& c, int id, const Json& state, Json answer, Json args) {
    c.request(id, "tools/call",
              {{"name", "edit"},
               {"arguments", std::move(args)},
               {"requestState", state},
               {"inputResponses", {{"approval", std::move(answer)}}},
               {"_meta", Client::modern_meta(elicit)}});
    return c.reply(id)["result"];
}

}  // namespace

TEST_CASE("approval, 2026-07-28: input_required first, then the retry with the answer writes") {
    Client c;
    const Json first = modern_first_round(c);
    CHECK(first["resultType"] == "input_required");
    CHECK(first["inputRequests"]["approval"]["method"] == "elicitation/create");
    REQUIRE(first["requestState"].is_string());
    CHECK(c.get("a.txt") == "one\n");
    const Json r = modern_retry(c, 3, first["requestState"],
                                {{"action", "accept"}, {"content", {{"decision", "apply"}}}}, c.edit_args());
    CHECK(r["resultType"] == "complete");
    CHECK(r["structuredContent"]["approval"] == "user");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE(
    "approval, 2026-07-28: decline refuses; an altered or foreign state is refused; a retry without answer asks "
    "again") {
    Client c;
    const Json state = modern_first_round(c)["requestState"];
    CHECK(reason_of(modern_retry(c, 3, state, {{"action", "decline"}}, c.edit_args())) == "rejected");
    std::string altered = state.get<std::string>();
    altered[3] = altered[3] == 'A' ? 'B' : 'A';
    CHECK(reason_of(modern_retry(c, 4, altered, {{"action", "accept"}}, c.edit_args())) == "invalid_arguments");
    Json other = c.edit_args();
    other["new_string"] = "zwei";
    CHECK(reason_of(modern_retry(c, 5, state, {{"action", "accept"}}, other)) == "invalid_arguments");
    c.request(6, "tools/call",
              {{"name", "edit"},
               {"arguments", c.edit_args()},
               {"requestState", state},
               {"_meta", Client::modern_meta(elicit)}});
    CHECK(c.reply(6)["result"]["resultType"] == "input_required");
    CHECK(c.get("a.txt") == "one\n");
}

TEST_CASE("approval, 2026-07-28: an expired state asks the model to start again") {
    Client c([](server::Config& config) { config.approval_timeout = std::chrono::milliseconds(1); });
    const Json state = modern_first_round(c)["requestState"];
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const Json r =
        modern_retry(c, 3, state, {{"action", "accept"}, {"content", {{"decision", "apply"}}}}, c.edit_args());
    CHECK(reason_of(r) == "timeout");
    CHECK(c.get("a.txt") == "one\n");
}

TEST_CASE("approval, 2026-07-28: an approval is good for one write; sent again after a revert it writes nothing") {
    Client c;
    const Json state = modern_first_round(c)["requestState"];
    const Json apply = {{"action", "accept"}, {"content", {{"decision", "apply"}}}};
    CHECK(modern_retry(c, 3, state, apply, c.edit_args())["structuredContent"]["approval"] == "user");
    CHECK(c.get("a.txt") == "two\n");
    c.put("a.txt", "one\n");  // reverted: the state's pre-image matches again
    const Json again = modern_retry(c, 4, state, apply, c.edit_args());
    CHECK(again["isError"] == true);
    CHECK(reason_of(again) == "invalid_arguments");
    CHECK(again["content"][0]["text"].get<std::string>().find("already used") != std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
    // A new approval still works.
    const Json fresh = modern_first_round(c, 5)["requestState"];
    CHECK(modern_retry(c, 6, fresh, apply, c.edit_args())["structuredContent"]["approval"] == "user");
    CHECK(c.get("a.txt") == "two\n");
}

TEST_CASE("approval, 2026-07-28: inputResponses with a key twice are refused; nothing is written") {
    Client c;
    const Json state = modern_first_round(c)["requestState"];
    const Json params = {{"name", "edit"},
                         {"arguments", c.edit_args()},
                         {"requestState", state},
                         {"_meta", Client::modern_meta(elicit)}};
    std::string line = Json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", params}}.dump();
    // {"action":"decline",...,"action":"accept"}: the last key would win. Put in before params' "}".
    line.insert(
        line.size() - 2,
        R"(,"inputResponses":{"approval":{"action":"decline","content":{"decision":"apply"},"action":"accept"}})");
    c.send_line(line);
    const Json r = c.reply(3);
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"].get<std::string>().find("\"params.inputResponses.approval.action\" appears twice") !=
          std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
}

TEST_CASE("approval, legacy: an answer with a key twice is malformed; nothing is written and the result says why") {
    Client c;
    c.start_legacy_edit();
    const Json form = c.server_request("elicitation/create");
    REQUIRE(form.contains("id"));
    c.send_line(R"({"jsonrpc":"2.0","id":)" + form["id"].dump() +
                R"(,"result":{"action":"decline","content":{"decision":"apply"},"action":"accept"}})");
    const Json r = c.reply(2)["result"];
    CHECK(r["isError"] == true);
    CHECK(reason_of(r) == "approval_unavailable");
    CHECK(r["content"][0]["text"].get<std::string>().find("\"result.action\" appears twice") != std::string::npos);
    CHECK(c.get("a.txt") == "one\n");
}
