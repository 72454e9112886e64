// The MCP side of a connection on protocol::Endpoint: each line the transport framed goes to the
// endpoint (batches when the session allows them, reply once, notifications/cancelled), and
// requests this server sends the client wait for their answer, a deadline or cancellation on the
// io_context. The session sees requests with a Reply, and notifications.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "protocol/endpoint.hpp"
#include "protocol/jsonrpc.hpp"
#include "server/transport.hpp"
#include "server/wake_signal.hpp"

namespace server {

using protocol::Json;

class RpcPeer : public std::enable_shared_from_this<RpcPeer> {
public:
    // A request being served, and the one reply it gets (see protocol::Endpoint).
    using Call = protocol::Endpoint::Call;
    using Reply = protocol::Endpoint::Reply;

    struct Handlers {
        std::function<void(protocol::Request request, Reply reply)> request;
        std::function<void(const protocol::Notification& note)> notification;  // all but notifications/cancelled
        std::function<bool()> batches_allowed;
    };

    // The most one message this server writes may hold: the official TypeScript client drops a
    // line over 10 MiB (and the connection with it).
    static constexpr std::size_t max_reply_bytes = 8u << 20;

    RpcPeer(asio::io_context& io, Transport& transport, std::size_t max_message_size, Handlers handlers);

    void on_line(std::string line);
    void on_oversized(std::size_t bytes);
    // Input has ended: nobody is left to answer a form or a roots/list, so calls waiting on the
    // client are abandoned (nothing written); work that needs no answer finishes.
    void end_of_input();
    // Completes when input has ended and every request has been answered.
    asio::awaitable<void> finished();

    void send(const Json& message);
    void notify(std::string_view method, Json params);

    // The client's answer to a request of ours: answered, timed out, or abandoned when the call it
    // serves is cancelled.
    struct Answer {
        std::optional<Json> response;  // the whole response message (result or error)
        bool cancelled = false;        // the call it served was cancelled
        bool timed_out = false;
        bool refused = false;  // too many requests outstanding
        // The answer came but cannot be trusted (a key repeated in one object): why, for the
        // message; `response` is then an empty object.
        std::string malformed;
    };
    // Sends `method` to the client and waits for its answer until `deadline`; `tick` runs every
    // few seconds meanwhile.
    asio::awaitable<Answer> ask(std::string method, Json params, std::chrono::steady_clock::time_point deadline,
                                std::shared_ptr<Call> call, std::function<void()> tick = nullptr);

private:
    // What the endpoint's reply_done shares with the peer (a Reply may outlive the peer).
    struct Idle {
        explicit Idle(asio::io_context& io) : signal(io.get_executor()) {}
        bool input_ended = false;
        WakeSignal signal;
    };

    asio::io_context& io_;
    std::size_t max_message_size_;
    std::shared_ptr<Idle> idle_;
    std::shared_ptr<protocol::Endpoint> endpoint_;
};

}  // namespace server
