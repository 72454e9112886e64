// RpcPeer: the session's protocol::Endpoint on the transport, and requests to the client awaited
// with asio timers (the deadline, the progress tick and the wake-up in one).
#include "server/rpc_peer.hpp"

#include <algorithm>

#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>

namespace server {

RpcPeer::RpcPeer(asio::io_context& io, Transport& transport, std::size_t max_message_size, Handlers handlers)
    : io_(io), max_message_size_(max_message_size), idle_(std::make_shared<Idle>(io)) {
    protocol::Endpoint::Handlers on;
    on.request = std::move(handlers.request);
    on.notification = std::move(handlers.notification);
    on.batches_allowed = std::move(handlers.batches_allowed);
    on.reply_done = [idle = idle_](std::size_t active) {
        // finished() waits for both; waking it before input has ended would only put it to sleep again.
        if (active == 0 && idle->input_ended) idle->signal.notify();
    };
    endpoint_ = protocol::Endpoint::make(
        protocol::mcp_dialect, protocol::Endpoint::Limits{max_reply_bytes},
        [&transport](std::string message) { transport.send(std::move(message)); }, std::move(on));
}

void RpcPeer::send(const Json& message) { endpoint_->send(message); }

void RpcPeer::notify(std::string_view method, Json params) { endpoint_->notify(method, std::move(params)); }

void RpcPeer::on_line(std::string line) { endpoint_->receive(line); }

asio::awaitable<void> RpcPeer::finished() {
    while (!(idle_->input_ended && endpoint_->active() == 0)) co_await idle_->signal.wait();
}

void RpcPeer::end_of_input() {
    idle_->input_ended = true;
    endpoint_->cancel_waiting();
    if (endpoint_->active() == 0) idle_->signal.notify();
}

void RpcPeer::on_oversized(std::size_t bytes) {
    send(protocol::make_error(std::nullopt, protocol::invalid_request,
                              "Invalid Request: message of " + std::to_string(bytes) + " bytes is over the limit of " +
                                  std::to_string(max_message_size_) + " bytes (--max-message-size); it was skipped"));
}

asio::awaitable<RpcPeer::Answer> RpcPeer::ask(std::string method, Json params,
                                              std::chrono::steady_clock::time_point deadline,
                                              std::shared_ptr<Call> call, std::function<void()> tick) {
    Answer answer;
    if (idle_->input_ended) {
        // Nobody is left to answer (a call that waited for another's lane comes here after EOF):
        // abandoned like the calls that were waiting when input ended, not left to its deadline.
        if (call) call->cancelled->store(true);
        answer.cancelled = true;
        co_return answer;
    }
    struct Waiting {
        explicit Waiting(asio::io_context& io) : wake(io) {}
        asio::steady_timer wake;  // the deadline and the progress tick as well as the wake-up
        std::optional<protocol::Endpoint::Outcome> outcome;
    };
    auto waiting = std::make_shared<Waiting>(io_);
    auto id = endpoint_->request(method, std::move(params), deadline, [waiting](protocol::Endpoint::Outcome outcome) {
        waiting->outcome = std::move(outcome);
        waiting->wake.cancel();
    });
    if (!id) {
        answer.refused = true;
        co_return answer;
    }
    const std::weak_ptr<protocol::Endpoint> endpoint = endpoint_;
    const auto withdraw = [endpoint, id = *id] {
        if (auto e = endpoint.lock()) e->withdraw(id, "the tool call was cancelled");
    };
    if (call) {
        call->on_cancel = withdraw;
        if (call->cancelled->load()) withdraw();  // cancelled before it could be woken
    }
    const auto tick_every = std::chrono::seconds(5);
    while (!waiting->outcome) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            endpoint_->expire(now);  // ours among them: it ends timed out
            if (!waiting->outcome) break;
            continue;
        }
        waiting->wake.expires_at(std::min(deadline, now + tick_every));
        asio::error_code ec;
        co_await waiting->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (!ec && !waiting->outcome && tick && std::chrono::steady_clock::now() < deadline) tick();
    }
    if (call) call->on_cancel = nullptr;
    if (!waiting->outcome) {  // not in the table any more (cannot happen): treated as no answer
        answer.timed_out = true;
        co_return answer;
    }
    protocol::Endpoint::Outcome& outcome = *waiting->outcome;
    switch (outcome.end) {
        case protocol::Endpoint::Outcome::End::answered:
            if (call && call->cancelled->load()) {
                answer.cancelled = true;  // answered, but the call it served is gone: nothing comes of it
            } else {
                answer.response = std::move(outcome.response);
                answer.malformed = std::move(outcome.malformed);
            }
            break;
        case protocol::Endpoint::Outcome::End::timed_out: answer.timed_out = true; break;
        case protocol::Endpoint::Outcome::End::withdrawn: answer.cancelled = true; break;
    }
    co_return answer;
}

}  // namespace server
