// Hostile input through a whole session: numbers out of range, every JSON type in every field of
// every method of both eras, keys given twice. Each request gets exactly one reply, a ping after
// it is answered, and the end of input still ends the session.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>

#include "session_client.hpp"

using session_test::Client;
using session_test::Json;

namespace {

// The replies to request `id` the server has written so far (taken out).
int replies_to(Client& c, const Json& id) {
    int n = 0;
    for (const Json& m : c.drain(std::chrono::milliseconds(0)))
        if (m.is_object() && !m.contains("method") && m.contains("id") && m["id"] == id) ++n;
    return n;
}

// Whether ping `id` is answered.
bool answers_ping(Client& c, int id) {
    c.request(id, "ping");
    return c.reply(id).value("result", Json()) == Json::object();
}

// Whether the end of input ends the session (every request answered, nothing waits).
bool ends_at_eof(Client& c) {
    c.transport().receiver.on_eof();
    bool finished = false;
    asio::co_spawn(
        c.io(),
        [&c, &finished]() -> asio::awaitable<void> {
            co_await c.session().finished();
            finished = true;
        },
        asio::detached);
    return c.run_until([&] { return finished; });
}

// Every place in `value` (by JSON pointer), containers included, the root excluded.
void places(const Json& value, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
    if (value.is_object()) {
        for (const auto& [key, member] : value.items()) {
            out.push_back(at / key);
            places(member, at / key, out);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            out.push_back(at / i);
            places(value[i], at / i, out);
        }
    }
}

const std::vector<Json>& hostile_values() {
    static const std::vector<Json> values = {Json(),
                                             true,
                                             0,
                                             -1,
                                             5,
                                             1.5,
                                             -0.0,
                                             18446744073709551615ull,
                                             -9223372036854775807ll - 1,
                                             1e308,
                                             "",
                                             "x",
                                             Json::array(),
                                             Json::array({1, "a", Json()}),
                                             Json::object(),
                                             Json{{"a", Json::object()}}};
    return values;
}

}  // namespace

TEST_CASE("session: a number out of range is a parse error; the session goes on and ends at EOF") {
    Client c;
    c.send_line(R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":1e999}})");
    const auto replies = c.drain();
    REQUIRE(replies.size() == 1);
    CHECK(replies[0]["error"]["code"] == -32700);
    CHECK_FALSE(replies[0].contains("id"));
    CHECK(answers_ping(c, 3));
    CHECK(ends_at_eof(c));
}

TEST_CASE("session: a first initialize with clientInfo.version 5 is invalid params naming the field; ping goes on") {
    Client c;
    c.request(1, "initialize",
              {{"protocolVersion", "2025-11-25"},
               {"capabilities", Json::object()},
               {"clientInfo", {{"name", "t"}, {"version", 5}}}});
    const Json r = c.reply(1);
    CHECK(r["error"]["code"] == -32602);
    CHECK(r["error"]["message"].get<std::string>().find("clientInfo.version must be a string") != std::string::npos);
    CHECK(answers_ping(c, 2));
    CHECK(c.initialize()["result"]["protocolVersion"] == "2025-11-25");  // a correct one is still accepted
    CHECK(ends_at_eof(c));
}

TEST_CASE("session: logging/setLevel with a level that is no string is invalid params; ping goes on") {
    Client c;
    c.initialize();
    for (const Json& level : {Json(5), Json(), Json::array({"debug"}), Json::object()}) {
        c.request(1, "logging/setLevel", {{"level", level}});
        const Json r = c.reply(1);
        CHECK(r["error"]["code"] == -32602);
        CHECK(r["error"]["message"].get<std::string>().find("level must be a string") != std::string::npos);
        CHECK(answers_ping(c, 2));
    }
    CHECK(ends_at_eof(c));
}

TEST_CASE("session: every JSON type in every field of every method gets exactly one reply; ping goes on") {
    // Valid messages of both eras; each field of each replaced by each hostile value in turn, in a
    // fresh session (legacy ones initialized first, unless the message is initialize).
    struct Case {
        bool legacy;
        Json params;
        std::string method;
    };
    Client probe;
    probe.put("a.txt", "one\n");
    const std::string file = probe.path("a.txt");
    const Json meta = Client::modern_meta({{"elicitation", Json::object()}});
    const std::vector<Case> cases = {
        {true,
         {{"protocolVersion", "2025-11-25"},
          {"capabilities", {{"elicitation", Json::object()}, {"roots", Json::object()}}},
          {"clientInfo", {{"name", "n"}, {"version", "1"}}}},
         "initialize"},
        {true, {{"level", "info"}}, "logging/setLevel"},
        {true,
         {{"name", "read"},
          {"arguments", {{"file_path", file}, {"offset", 1}, {"limit", 2}}},
          {"_meta", {{"progressToken", 7}}}},
         "tools/call"},
        {true,
         {{"name", "edit"},
          {"arguments", {{"file_path", file}, {"old_string", "one"}, {"new_string", "two"}, {"dry_run", true}}}},
         "tools/call"},
        {true, {{"uri", "mcp-edit://session/patch"}}, "resources/read"},
        {true, {{"uri", "mcp-edit://session/patch"}}, "resources/subscribe"},
        {true, {{"cursor", "x"}}, "resources/list"},
        {true, {{"requestId", 9}, {"reason", "r"}}, "notifications/cancelled"},
        {false, {{"_meta", meta}}, "server/discover"},
        {false, {{"_meta", meta}}, "tools/list"},
        {false,
         {{"name", "edit"},
          {"arguments", {{"file_path", file}, {"old_string", "one"}, {"new_string", "two"}}},
          {"requestState", "abc.def"},
          {"inputResponses", {{"approval", {{"action", "accept"}, {"content", {{"decision", "apply"}}}}}}},
          {"_meta", meta}},
         "tools/call"},
        {false, {{"uri", "mcp-edit://session/patch"}, {"_meta", meta}}, "resources/read"},
    };
    int sent = 0;
    for (const Case& k : cases) {
        std::vector<Json::json_pointer> at;
        places(k.params, Json::json_pointer(), at);
        for (const auto& pointer : at) {
            Client c;
            c.put("a.txt", "one\n");
            if (k.legacy && k.method != "initialize") c.initialize();
            for (const Json& value : hostile_values()) {
                Json params = k.params;
                params[pointer] = value;
                const bool notification = k.method.rfind("notifications/", 0) == 0;
                Json message = {{"jsonrpc", "2.0"}, {"method", k.method}, {"params", params}};
                if (!notification) message["id"] = 100;
                c.send(message);
                ++sent;
                INFO(k.method << " " << pointer.to_string() << " = " << value.dump());
                if (!notification) {
                    // Whatever the server asks meanwhile (a form, roots/list) is answered with the value.
                    std::optional<Json> r;
                    for (int round = 0; round < 8 && !(r && !r->contains("method")); ++round) {
                        r = c.wait_for([](const Json& m) {
                            return m.is_object() &&
                                   (m.value("id", Json()) == 100 || (m.contains("method") && m.contains("id")));
                        });
                        if (r && r->contains("method")) c.respond((*r)["id"], value);
                    }
                    REQUIRE(r);
                    CHECK((r->contains("result") || r->contains("error")));
                }
                CHECK(answers_ping(c, 101));
                CHECK(replies_to(c, 100) == 0);  // no second reply
            }
            CHECK(ends_at_eof(c));
        }
    }
    CHECK(sent > 300);
}

TEST_CASE("session: a message with a key twice is invalid; a repeated id is left out of the reply") {
    Client c;
    c.send_line(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":2}})");
    const Json r = c.reply(1);
    CHECK(r["error"]["code"] == -32600);
    CHECK(r["error"]["message"].get<std::string>().find("\"params.a\" appears twice") != std::string::npos);
    c.send_line(R"({"jsonrpc":"2.0","id":2,"method":"ping","id":3})");
    const auto replies = c.drain();
    REQUIRE(replies.size() == 1);
    CHECK_FALSE(replies[0].contains("id"));
    CHECK(answers_ping(c, 4));
}

TEST_CASE("session: a call that would ask the client only after input ended is abandoned; the session ends") {
    Client c;
    c.start_legacy_edit();  // id 2 waits for the form
    REQUIRE(c.server_request("elicitation/create").contains("id"));
    c.request(3, "tools/call", Client::call_params("edit", c.edit_args()));  // waits for a.txt's lane
    CHECK(ends_at_eof(c));                                                   // not after --approval-timeout (600 s)
    CHECK(c.get("a.txt") == "one\n");
}
