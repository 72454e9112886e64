// The JSON-RPC side of a connection, below any MCP meaning: each line parsed (batches when the
// session allows them), each request answered exactly once (or never, when cancelled), the
// in-flight table and notifications/cancelled, and requests this server sends the client, each
// with a deadline. The session sees requests with a Reply, and notifications.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "protocol/jsonrpc.hpp"
#include "server/transport.hpp"
#include "server/wake_signal.hpp"

namespace server {

using protocol::Json;

class RpcPeer : public std::enable_shared_from_this<RpcPeer> {
public:
    // A request being served: the flag notifications/cancelled (or the end of input) sets.
    struct Call {
        std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
        std::function<void()> on_cancel;  // wakes a wait on the client (approval, roots)
    };

    struct Batch;

    // The one reply a request gets: sent exactly once, dropped when the request was cancelled, and
    // an internal error if a handler path forgot to answer.
    class Reply {
    public:
        Reply(std::shared_ptr<RpcPeer> peer, std::optional<protocol::RequestId> id, std::shared_ptr<Batch> batch,
              std::shared_ptr<Call> call);
        Reply(Reply&& other) noexcept;
        Reply& operator=(Reply&&) = delete;
        Reply(const Reply&) = delete;
        ~Reply();

        const std::optional<protocol::RequestId>& id() const { return id_; }
        const std::shared_ptr<Call>& call() const { return call_; }
        bool cancelled() const { return call_ && call_->cancelled->load(); }

        // A result whose message would be over max_reply_bytes is replaced by `too_big(bytes)`
        // when given (a tools/call: an isError result saying what to narrow), else by an error.
        using TooBig = std::function<Json(std::size_t bytes)>;
        void result(Json result, const TooBig& too_big = nullptr);
        void error(int code, std::string_view message, const Json& data = Json());

    private:
        void finish(Json message, const TooBig& too_big = nullptr);

        std::shared_ptr<RpcPeer> peer_;
        std::optional<protocol::RequestId> id_;
        std::shared_ptr<Batch> batch_;
        std::shared_ptr<Call> call_;
    };

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
        bool refused = false;          // too many requests outstanding
        // The answer came but cannot be trusted (a key repeated in one object): why, for the
        // message; `response` is then an empty object.
        std::string malformed;
    };
    // Sends `method` to the client and waits for its answer until `deadline`; `tick` runs every
    // few seconds meanwhile.
    asio::awaitable<Answer> ask(std::string method, Json params, std::chrono::steady_clock::time_point deadline,
                                std::shared_ptr<Call> call, std::function<void()> tick = nullptr);

private:
    struct Outgoing;

    void take_line(const std::string& line);
    void dispatch(Json value, const std::shared_ptr<Batch>& batch);
    // A message with a key repeated in one object (at `where`): refused; an answer to a request of
    // ours reaches the waiting call as malformed.
    void refuse_duplicate(protocol::ParsedLine parsed);
    void cancel(const protocol::Notification& note);
    void take_response(const protocol::Response& response, std::string malformed = {});
    void request_finished();

    asio::io_context& io_;
    Transport& transport_;
    std::size_t max_message_size_;
    Handlers handlers_;
    std::unordered_map<std::string, std::shared_ptr<Call>> in_flight_;
    std::unordered_map<std::string, std::shared_ptr<Outgoing>> outgoing_;
    std::int64_t next_outgoing_id_ = 1;
    std::size_t active_ = 0;  // requests being served, including batch members
    bool input_ended_ = false;
    WakeSignal idle_;
};

}  // namespace server
