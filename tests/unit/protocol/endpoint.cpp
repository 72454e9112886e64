// Unit tests of protocol/endpoint: requests answered exactly once (and method-not-found when
// unserved), the id table of our requests (answer, unknown id, second answer, deadline, withdrawal)
// in both dialects, cancellation of a request in flight.
#include <doctest/doctest.h>

#include <deque>
#include <optional>

#include "protocol/endpoint.hpp"

using namespace protocol;
using namespace std::chrono_literals;

namespace {

struct Wire {
    std::deque<Json> sent;
    std::optional<Endpoint::Reply> held;
    std::vector<std::string> notes;
    std::shared_ptr<Endpoint> endpoint;

    explicit Wire(const Dialect& dialect = mcp_dialect, bool serve = true) {
        Endpoint::Handlers handlers;
        if (serve)
            handlers.request = [this](Request request, Endpoint::Reply reply) {
                if (request.method == "hold")
                    held.emplace(std::move(reply));
                else if (request.method == "echo")
                    reply.result(request.params);
                else
                    reply.method_not_found(request.method);
            };
        handlers.notification = [this](const Notification& note) { notes.push_back(note.method); };
        endpoint = Endpoint::make(
            dialect, Endpoint::Limits{1024}, [this](std::string m) { sent.push_back(Json::parse(m)); },
            std::move(handlers));
    }
    Json take() {
        REQUIRE_FALSE(sent.empty());
        Json j = std::move(sent.front());
        sent.pop_front();
        return j;
    }
};

}  // namespace

TEST_CASE("endpoint: a request is answered once; an unserved method gets -32601 naming it") {
    Wire w;
    w.endpoint->receive(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})");
    CHECK(w.take() == Json::parse(R"({"jsonrpc":"2.0","id":1,"result":{"a":1}})"));
    w.endpoint->receive(R"({"jsonrpc":"2.0","id":"x","method":"workspace/foo"})");
    const Json unknown = w.take();
    CHECK(unknown["id"] == "x");
    CHECK(unknown["error"]["code"] == method_not_found);
    CHECK(unknown["error"]["message"] == "Method not found: workspace/foo");

    w.endpoint->receive(R"({"jsonrpc":"2.0","id":2,"method":"hold"})");
    CHECK(w.endpoint->active() == 1);
    w.held->result(Json::object());
    w.held->result(Json::object());  // a second answer is not sent
    w.held.reset();
    CHECK(w.take()["id"] == 2);
    CHECK(w.sent.empty());
    CHECK(w.endpoint->active() == 0);

    Wire unserved(lsp_dialect, false);  // no request handler: every request is method-not-found
    unserved.endpoint->receive(R"({"jsonrpc":"2.0","id":3,"method":"workspace/configuration","params":{}})");
    CHECK(unserved.take()["error"]["code"] == method_not_found);
}

TEST_CASE("endpoint: the cancel notification of each dialect cancels a request in flight, whose reply is dropped") {
    for (const Dialect* dialect : {&mcp_dialect, &lsp_dialect}) {
        Wire w(*dialect);
        w.endpoint->receive(R"({"jsonrpc":"2.0","id":5,"method":"hold"})");
        bool woken = false;
        w.held->call()->on_cancel = [&] { woken = true; };
        w.endpoint->receive(Json{{"jsonrpc", "2.0"},
                                 {"method", dialect->cancel_method},
                                 {"params", {{std::string(dialect->cancel_id_key), 5}}}}
                                .dump());
        CHECK(woken);
        CHECK(w.held->cancelled());
        w.held->result(Json::object());
        CHECK(w.sent.empty());
        CHECK(w.notes.empty());  // the cancel notification is the endpoint's, not the handler's
    }
}

TEST_CASE("endpoint: our request is answered through the id table; an unknown id and a second answer are ignored") {
    Wire w;
    std::vector<Endpoint::Outcome> outcomes;
    auto id = w.endpoint->request("roots/list", Json::object(), Endpoint::Clock::now() + 10s,
                                  [&](Endpoint::Outcome o) { outcomes.push_back(std::move(o)); });
    REQUIRE(id.ok());
    const Json request = w.take();
    CHECK(request["method"] == "roots/list");
    CHECK(request["id"] == id->to_json());
    CHECK(w.endpoint->waiting() == 1);

    w.endpoint->receive(R"({"jsonrpc":"2.0","id":999,"result":{}})");  // nobody asked
    CHECK(outcomes.empty());
    CHECK(w.sent.empty());  // a response is never answered

    w.endpoint->receive(Json{{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", {{"roots", Json::array()}}}}.dump());
    w.endpoint->receive(
        Json{{"jsonrpc", "2.0"}, {"id", request["id"]}, {"error", {{"code", 1}, {"message", "m"}}}}.dump());
    REQUIRE(outcomes.size() == 1);
    CHECK(outcomes[0].end == Endpoint::Outcome::End::answered);
    CHECK((*outcomes[0].response)["result"]["roots"] == Json::array());
    CHECK(w.endpoint->waiting() == 0);
}

TEST_CASE(
    "endpoint: a request past its deadline is withdrawn with the dialect's cancel notification; a late answer is "
    "ignored") {
    for (const Dialect* dialect : {&mcp_dialect, &lsp_dialect}) {
        Wire w(*dialect);
        const auto now = Endpoint::Clock::now();
        std::vector<std::string> ends;
        const auto record = [&](const char* name) {
            return [&ends, name](Endpoint::Outcome o) {
                ends.push_back(std::string(name) +
                               (o.end == Endpoint::Outcome::End::timed_out ? ":timed out" : ":other"));
            };
        };
        auto soon = w.endpoint->request("a", Json::object(), now + 10ms, record("soon"));
        auto later = w.endpoint->request("b", Json::object(), now + 10s, record("later"));
        REQUIRE(soon.ok());
        REQUIRE(later.ok());
        w.sent.clear();
        CHECK(w.endpoint->expire(now) == now + 10ms);  // nothing is due yet
        CHECK(ends.empty());
        CHECK(w.endpoint->expire(now + 20ms) == now + 10s);
        CHECK(ends == std::vector<std::string>{"soon:timed out"});
        const Json cancel = w.take();
        CHECK(cancel["method"] == dialect->cancel_method);
        CHECK(cancel["params"][std::string(dialect->cancel_id_key)] == soon->to_json());
        CHECK(cancel["params"].contains("reason") == dialect->cancel_has_reason);
        w.endpoint->receive(Json{{"jsonrpc", "2.0"}, {"id", soon->to_json()}, {"result", Json::object()}}.dump());
        CHECK(ends.size() == 1);
        CHECK(w.endpoint->waiting() == 1);
    }
}

TEST_CASE("endpoint: a withdrawn request tells the other side once; too many waiting requests are refused") {
    Wire w;
    std::optional<Endpoint::Outcome> outcome;
    auto id = w.endpoint->request("elicitation/create", Json::object(), Endpoint::Clock::now() + 10s,
                                  [&](Endpoint::Outcome o) { outcome = std::move(o); });
    REQUIRE(id.ok());
    w.take();
    CHECK(w.endpoint->withdraw(*id, "the tool call was cancelled"));
    REQUIRE(outcome);
    CHECK(outcome->end == Endpoint::Outcome::End::withdrawn);
    CHECK(w.take()["params"] == Json{{"requestId", id->to_json()}, {"reason", "the tool call was cancelled"}});
    CHECK_FALSE(w.endpoint->withdraw(*id, "again"));
    CHECK(w.sent.empty());

    std::size_t refused = 0;
    for (int i = 0; i < 300; ++i)
        if (!w.endpoint->request("x", Json::object(), Endpoint::Clock::now() + 10s, nullptr).ok()) ++refused;
    CHECK(refused == 300 - 256);
}

TEST_CASE("endpoint: a reply over max_out is replaced by an error saying so; a request over it is refused") {
    Wire w;
    w.endpoint->receive(
        Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "echo"}, {"params", {{"t", std::string(2000, 'x')}}}}.dump());
    const Json replaced = w.take();
    CHECK(replaced["error"]["code"] == internal_error);
    auto big = w.endpoint->request("x", {{"t", std::string(2000, 'x')}}, Endpoint::Clock::now() + 10s, nullptr);
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().starts_with("the request x would be"));
    CHECK(w.sent.empty());
    CHECK(w.endpoint->waiting() == 0);
}

TEST_CASE("endpoint: what cannot be parsed or is no message gets an error without id; responses to it are none") {
    Wire w;
    w.endpoint->receive("{not json");
    const Json parse = w.take();
    CHECK(parse["error"]["code"] == parse_error);
    CHECK_FALSE(parse.contains("id"));
    w.endpoint->receive(R"([{"jsonrpc":"2.0","id":1,"method":"echo"}])");  // no batches allowed here
    CHECK(w.take()["error"]["message"] == std::string(mcp_dialect.no_batches));
}
