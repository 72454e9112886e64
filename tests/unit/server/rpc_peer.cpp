// The JSON-RPC peer alone, under a fake transport: a request whose handler forgets to answer gets
// an internal error, a batch is answered once all its members are, and a request to the client
// ends with its answer, at its deadline (withdrawn), or when the call it serves is cancelled.
#include <doctest/doctest.h>

#include <optional>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>

#include "session_client.hpp"

using session_test::FakeTransport;
using session_test::Json;

namespace {

struct Peer {
    asio::io_context io;
    FakeTransport transport;
    std::optional<server::RpcPeer::Reply> held;  // a reply a test answers later
    std::shared_ptr<server::RpcPeer> peer = std::make_shared<server::RpcPeer>(
        io, transport, 1024,
        server::RpcPeer::Handlers{[this](protocol::Request request, server::RpcPeer::Reply reply) {
                                      if (request.method == "hold")
                                          held.emplace(std::move(reply));
                                      else if (request.method == "echo")
                                          reply.result(request.params);
                                      // anything else: the reply is dropped unanswered
                                  },
                                  [](const protocol::Notification&) {}, [] { return true; }});

    Json take() {
        REQUIRE_FALSE(transport.sent.empty());
        Json j = Json::parse(transport.sent.front());
        transport.sent.pop_front();
        return j;
    }
    void run_for(std::chrono::milliseconds time) {
        io.restart();
        io.run_for(time);
    }
};

}  // namespace

TEST_CASE("rpc peer: a request left unanswered gets an internal error, once") {
    Peer p;
    p.peer->on_line(R"({"jsonrpc":"2.0","id":1,"method":"forget"})");
    const Json r = p.take();
    CHECK(r["id"] == 1);
    CHECK(r["error"]["code"] == protocol::internal_error);
    CHECK(p.transport.sent.empty());
}

TEST_CASE("rpc peer: a batch is answered as one array when its last member is") {
    Peer p;
    p.peer->on_line(
        R"([{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}},{"jsonrpc":"2.0","id":2,"method":"hold"}])");
    CHECK(p.transport.sent.empty());
    p.held->result(Json::object());
    p.held.reset();
    const Json r = p.take();
    REQUIRE(r.is_array());
    CHECK(r.size() == 2);
    CHECK(r[0]["result"]["a"] == 1);
}

TEST_CASE("rpc peer: a request to the client ends with its answer, its deadline, or the call's cancellation") {
    Peer p;
    std::optional<server::RpcPeer::Answer> answered, timed_out, cancelled;
    auto call = std::make_shared<server::RpcPeer::Call>();
    const auto ask = [&](std::optional<server::RpcPeer::Answer>& out, std::chrono::milliseconds within,
                         std::shared_ptr<server::RpcPeer::Call> c) {
        asio::co_spawn(
            p.io,
            [&, within, c]() -> asio::awaitable<void> {
                out = co_await p.peer->ask("roots/list", Json::object(), std::chrono::steady_clock::now() + within, c);
            },
            asio::detached);
    };
    ask(answered, std::chrono::seconds(5), nullptr);
    p.run_for(std::chrono::milliseconds(1));
    const Json request = p.take();
    p.peer->on_line(Json{{"jsonrpc", "2.0"}, {"id", request["id"]}, {"result", {{"roots", Json::array()}}}}.dump());
    p.run_for(std::chrono::milliseconds(1));
    REQUIRE(answered);
    CHECK((*answered->response)["result"]["roots"] == Json::array());

    ask(timed_out, std::chrono::milliseconds(5), nullptr);
    p.run_for(std::chrono::milliseconds(30));
    REQUIRE(timed_out);
    CHECK(timed_out->timed_out);
    p.take();  // the request
    CHECK(p.take()["params"]["reason"] == "no answer in time");

    ask(cancelled, std::chrono::seconds(5), call);
    p.run_for(std::chrono::milliseconds(1));
    call->cancelled->store(true);
    call->on_cancel();
    p.run_for(std::chrono::milliseconds(1));
    REQUIRE(cancelled);
    CHECK(cancelled->cancelled);
}

TEST_CASE(
    "rpc peer: a reply over max_reply_bytes is replaced (by too_big's result, or an error); smaller ones are not") {
    asio::io_context io;
    FakeTransport transport;
    const std::string big(server::RpcPeer::max_reply_bytes, 'x');
    auto peer = std::make_shared<server::RpcPeer>(
        io, transport, 1024,
        server::RpcPeer::Handlers{
            [&big](protocol::Request request, server::RpcPeer::Reply reply) {
                if (request.method == "big")
                    reply.result({{"text", big}}, [](std::size_t bytes) { return Json{{"replaced", bytes}}; });
                else if (request.method == "big-plain")
                    reply.result({{"text", big}});
                else
                    reply.result({{"text", "small"}}, [](std::size_t) { return Json("never"); });
            },
            [](const protocol::Notification&) {}, [] { return true; }});
    peer->on_line(R"({"jsonrpc":"2.0","id":1,"method":"big"})");
    peer->on_line(R"({"jsonrpc":"2.0","id":2,"method":"big-plain"})");
    peer->on_line(R"({"jsonrpc":"2.0","id":3,"method":"small"})");
    REQUIRE(transport.sent.size() == 3);
    for (const auto& line : transport.sent) CHECK(line.size() <= server::RpcPeer::max_reply_bytes);
    const Json replaced = Json::parse(transport.sent[0]);
    CHECK(replaced["result"]["replaced"].get<std::size_t>() > server::RpcPeer::max_reply_bytes);
    const Json error = Json::parse(transport.sent[1]);
    CHECK(error["id"] == 2);
    CHECK(error["error"]["message"].get<std::string>().find("over the 8.0 MiB one message may carry") !=
          std::string::npos);
    CHECK(Json::parse(transport.sent[2])["result"]["text"] == "small");
}
