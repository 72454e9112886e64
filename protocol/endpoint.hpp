// One JSON-RPC endpoint for both directions, used by the MCP session's peer (server/rpc_peer) and
// the LSP client (checks/language_server): each message in classified, each request answered once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/result.hpp"
#include "protocol/jsonrpc.hpp"

namespace protocol {

// What differs between the JSON-RPC dialects spoken here.
struct Dialect {
    std::string_view cancel_method;  // the notification that withdraws a request
    std::string_view cancel_id_key;  // its parameter naming the request
    bool cancel_has_reason;          // it carries a "reason"
    std::string_view no_batches;     // the error for a batch when batches are not allowed
};
inline constexpr Dialect mcp_dialect{"notifications/cancelled", "requestId", true,
                                     "Invalid Request: JSON-RPC batches are accepted only under protocol version "
                                     "2025-03-26; send one message per line"};
inline constexpr Dialect lsp_dialect{"$/cancelRequest", "id", false,
                                     "Invalid Request: LSP has no JSON-RPC batches; send one message per frame"};

// Transport-neutral: frames' bodies in (receive), serialized messages out (the Output function),
// so the asio session and the language server's pipe threads both drive it. Not thread-safe: its
// owner calls it from one thread at a time (the session's io thread, the language server's lock),
// and every handler and callback runs inside such a call.
class Endpoint : public std::enable_shared_from_this<Endpoint> {
public:
    using Clock = std::chrono::steady_clock;

    // A request being served: the flag its cancellation (or the end of input) sets.
    struct Call {
        std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
        std::function<void()> on_cancel;  // wakes a wait on the other side (approval, roots)
    };

    struct Batch;

    // The one reply a request gets: sent exactly once, dropped when the request was cancelled, and
    // an internal error if a handler path forgot to answer.
    class Reply {
    public:
        Reply(std::shared_ptr<Endpoint> endpoint, std::optional<RequestId> id, std::shared_ptr<Batch> batch,
              std::shared_ptr<Call> call);
        Reply(Reply&& other) noexcept;
        Reply& operator=(Reply&&) = delete;
        Reply(const Reply&) = delete;
        ~Reply();

        const std::optional<RequestId>& id() const { return id_; }
        const std::shared_ptr<Call>& call() const { return call_; }
        bool cancelled() const { return call_ && call_->cancelled->load(); }

        // A result whose message would be over Limits::max_out is replaced by `too_big(bytes)` when
        // given (a tools/call: an isError result saying what to narrow), else by an error.
        using TooBig = std::function<Json(std::size_t bytes)>;
        void result(Json result, const TooBig& too_big = nullptr);
        void error(int code, std::string_view message, const Json& data = Json());
        // The answer to a method this side does not serve (-32601), worded in one place.
        void method_not_found(std::string_view method);

    private:
        void finish(Json message, const TooBig& too_big = nullptr);

        std::shared_ptr<Endpoint> endpoint_;
        std::optional<RequestId> id_;
        std::shared_ptr<Batch> batch_;
        std::shared_ptr<Call> call_;
    };

    struct Handlers {
        std::function<void(Request request, Reply reply)> request;   // none: method not found
        std::function<void(const Notification& note)> notification;  // all but the cancel method
        std::function<bool()> batches_allowed;                       // none: never
        std::function<void(std::size_t active)> reply_done;          // a request was answered (or dropped)
    };

    struct Limits {
        std::size_t max_out;  // one message written; a larger reply is replaced
        std::size_t max_in_flight = 4096;
        std::size_t max_batch = 1024;
        std::size_t max_outgoing = 256;
    };

    // Gets each message to write, serialized, without framing.
    using Output = std::function<void(std::string message)>;

    static std::shared_ptr<Endpoint> make(const Dialect& dialect, Limits limits, Output output, Handlers handlers);
    Endpoint(const Dialect& dialect, Limits limits, Output output, Handlers handlers);

    // One frame's body: parsed (a batch when allowed), classified and dispatched. Never throws.
    void receive(std::string_view body);
    void send(const Json& message);
    void notify(std::string_view method, Json params);

    // Requests being served that have not been answered yet (batch members included).
    std::size_t active() const { return active_; }
    // Input has ended: every request in flight waiting on the other side (on_cancel set) is
    // cancelled and woken.
    void cancel_waiting();

    // How a request of ours ended: answered (`response` holds {"result": ...} or {"error": ...}),
    // past its deadline, or withdrawn.
    struct Outcome {
        enum class End { answered, timed_out, withdrawn } end = End::answered;
        std::optional<Json> response;
        // The answer came but cannot be trusted (a key repeated in one object): why; `response`
        // is then an empty object.
        std::string malformed;
    };
    using Done = std::function<void(Outcome outcome)>;

    // Sends a request; `done` runs once, from receive() (answered), expire() (timed out) or
    // withdraw(). Refused (with why) when max_outgoing requests are waiting.
    base::Result<RequestId, std::string> request(std::string_view method, Json params, Clock::time_point deadline,
                                                 Done done);
    // Withdraws a waiting request: the dialect's cancel notification (with `reason`), then `done`
    // with End::withdrawn. False when it is not waiting (answered, expired or unknown).
    bool withdraw(const RequestId& id, std::string_view reason);
    // Every request past its deadline at `now`: withdrawn with "no answer in time", `done` with
    // End::timed_out. Returns the earliest deadline left.
    std::optional<Clock::time_point> expire(Clock::time_point now);
    std::size_t waiting() const { return outgoing_.size(); }

private:
    struct Outgoing {
        Clock::time_point deadline;
        Done done;
    };

    void take(std::string_view body);
    void dispatch(Json value, const std::shared_ptr<Batch>& batch);
    void refuse_duplicate(ParsedLine parsed);
    void cancel(const Notification& note);
    void take_response(const Response& response, std::string malformed = {});
    void send_cancel(const RequestId& id, std::string_view reason);
    void reply_finished();

    Dialect dialect_;
    Limits limits_;
    Output output_;
    Handlers handlers_;
    std::unordered_map<std::string, std::shared_ptr<Call>> in_flight_;
    std::unordered_map<std::string, std::pair<RequestId, Outgoing>> outgoing_;
    // Keys of the latest requests of ours that were answered, so a second answer is told apart
    // from one to an id never used (bounded: the oldest is forgotten).
    static constexpr std::size_t remembered_answers = 256;
    std::deque<std::string> answered_;
    std::int64_t next_id_ = 1;
    std::size_t active_ = 0;
};

}  // namespace protocol
