// RpcPeer: reply-once, batches, the in-flight table, cancellation and outgoing requests.
#include "server/rpc_peer.hpp"

#include <algorithm>

#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"

namespace server {

using protocol::RequestId;

namespace {

constexpr std::size_t max_in_flight = 4096;
constexpr std::size_t max_batch = 1024;
constexpr std::size_t max_outgoing = 256;

}  // namespace

// Replies of one JSON-RPC batch, sent together as one array once the last member is answered.
struct RpcPeer::Batch {
    std::vector<std::string> replies;  // serialized
    std::size_t pending = 0;
    bool dispatching = true;  // members are still being dispatched
};

// A request this server sent to the client, waiting for its response.
struct RpcPeer::Outgoing {
    std::shared_ptr<asio::steady_timer> wake;
    std::optional<Json> response;
    std::string malformed;  // see Answer::malformed
};

RpcPeer::Reply::Reply(std::shared_ptr<RpcPeer> peer, std::optional<RequestId> id, std::shared_ptr<Batch> batch,
                      std::shared_ptr<Call> call)
    : peer_(std::move(peer)), id_(std::move(id)), batch_(std::move(batch)), call_(std::move(call)) {
    if (batch_) ++batch_->pending;
    ++peer_->active_;
}

RpcPeer::Reply::Reply(Reply&& other) noexcept
    : peer_(std::move(other.peer_)), id_(std::move(other.id_)), batch_(std::move(other.batch_)),
      call_(std::move(other.call_)) {}

RpcPeer::Reply::~Reply() {
    if (peer_) error(protocol::internal_error, "Internal error: the request ended without a reply");
}

void RpcPeer::Reply::result(Json result, const TooBig& too_big) {
    if (!peer_) return;
    finish(id_ ? protocol::make_result(*id_, std::move(result)) : Json(), too_big);
}

void RpcPeer::Reply::error(int code, std::string_view message, const Json& data) {
    if (!peer_) return;
    finish(protocol::make_error(id_, code, message, data));
}

namespace {

// One batch's replies as the JSON array they are members of.
std::string join_batch(std::vector<std::string>& replies) {
    std::string out = "[";
    for (std::size_t i = 0; i < replies.size(); ++i) out += (i ? "," : "") + std::move(replies[i]);
    return out + "]";
}

std::string megabytes(std::size_t bytes) {
    const std::size_t tenths = (bytes * 10 + (1u << 19)) >> 20;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

}  // namespace

void RpcPeer::Reply::finish(Json message, const TooBig& too_big) {
    auto peer = std::move(peer_);
    if (call_ && id_) peer->in_flight_.erase(id_->key());
    const bool drop = cancelled() || message.is_null();
    std::string text;
    if (!drop) {
        text = protocol::serialize(message);
        message = Json();  // freed before anything else is built
        if (text.size() > max_reply_bytes) {
            const std::size_t bytes = text.size();
            text.clear();
            text.shrink_to_fit();
            base::log::warn("a reply of {} bytes is over the limit of {}; replaced", bytes, max_reply_bytes);
            text = protocol::serialize(
                too_big ? protocol::make_result(*id_, too_big(bytes))
                        : protocol::make_error(id_, protocol::internal_error,
                                               "Internal error: the reply would be " + megabytes(bytes) + ", over the " +
                                                   megabytes(max_reply_bytes) +
                                                   " one message may carry; ask for less at a time"));
        }
    }
    if (batch_) {
        if (!drop) batch_->replies.push_back(std::move(text));
        if (--batch_->pending == 0 && !batch_->dispatching && !batch_->replies.empty())
            peer->transport_.send(join_batch(batch_->replies));
    } else if (!drop) {
        peer->transport_.send(std::move(text));
    }
    peer->request_finished();
}

RpcPeer::RpcPeer(asio::io_context& io, Transport& transport, std::size_t max_message_size, Handlers handlers)
    : io_(io),
      transport_(transport),
      max_message_size_(max_message_size),
      handlers_(std::move(handlers)),
      idle_(io.get_executor()) {}

void RpcPeer::send(const Json& message) { transport_.send(protocol::serialize(message)); }

void RpcPeer::notify(std::string_view method, Json params) {
    send(protocol::make_notification(std::string(method), std::move(params)));
}

void RpcPeer::request_finished() {
    if (active_ > 0) --active_;
    // finished() waits for both; waking it before input has ended would only put it to sleep again.
    if (active_ == 0 && input_ended_) idle_.notify();
}

asio::awaitable<void> RpcPeer::finished() {
    while (!(input_ended_ && active_ == 0)) co_await idle_.wait();
}

void RpcPeer::end_of_input() {
    input_ended_ = true;
    for (auto& [key, call] : in_flight_) {
        if (!call->on_cancel) continue;
        call->cancelled->store(true);
        call->on_cancel();
    }
    if (active_ == 0) idle_.notify();
}

void RpcPeer::on_oversized(std::size_t bytes) {
    send(protocol::make_error(std::nullopt, protocol::invalid_request,
                              "Invalid Request: message of " + std::to_string(bytes) +
                                  " bytes is over the limit of " + std::to_string(max_message_size_) +
                                  " bytes (--max-message-size); it was skipped"));
}

void RpcPeer::on_line(std::string line) {
    // Handlers read client JSON without throwing; should one still throw, the request's Reply
    // (destroyed on the way out) answers it with an internal error, and this line ends here:
    // never the read loop, which would stop the server answering anything, even at EOF.
    try {
        take_line(line);
    } catch (const std::exception& e) {
        base::log::error("internal error while serving a message: {}", e.what());
    }
}

namespace {

std::string duplicate_message(const std::string& where) {
    return "Invalid Request: the key \"" + where +
           "\" appears twice in one object; which one counts would be ambiguous, so the message was not acted on. "
           "Send each key once.";
}

}  // namespace

void RpcPeer::refuse_duplicate(protocol::ParsedLine parsed) {
    const std::string message = duplicate_message(parsed.duplicate_key);
    base::log::warn("refused a message with a repeated key {}", parsed.duplicate_key);
    if (parsed.kind == protocol::ParsedLine::Kind::batch) {
        send(protocol::make_error(std::nullopt, protocol::invalid_request, message));
        return;
    }
    protocol::Message classified = protocol::classify(std::move(parsed.value));
    if (auto* invalid = std::get_if<protocol::Invalid>(&classified)) {
        Reply(shared_from_this(), invalid->id, nullptr, nullptr).error(invalid->code, invalid->message);
    } else if (auto* response = std::get_if<protocol::Response>(&classified)) {
        take_response(*response, "the key \"" + parsed.duplicate_key + "\" appears twice in one object");
    } else if (auto* request = std::get_if<protocol::Request>(&classified)) {
        // An id that was itself repeated cannot be trusted either.
        std::optional<RequestId> id;
        if (parsed.duplicate_key != "id") id = request->id;
        Reply(shared_from_this(), id, nullptr, nullptr).error(protocol::invalid_request, message);
    }
    // A notification gets no reply: it is dropped.
}

void RpcPeer::take_line(const std::string& line) {
    protocol::ParsedLine parsed = protocol::parse_line(line);
    if (parsed.kind != protocol::ParsedLine::Kind::failure && !parsed.duplicate_key.empty()) {
        refuse_duplicate(std::move(parsed));
        return;
    }
    switch (parsed.kind) {
        case protocol::ParsedLine::Kind::failure:
            send(protocol::make_error(std::nullopt, parsed.code, parsed.message));
            return;
        case protocol::ParsedLine::Kind::single:
            dispatch(std::move(parsed.value), nullptr);
            return;
        case protocol::ParsedLine::Kind::batch:
            break;
    }
    if (!handlers_.batches_allowed()) {
        send(protocol::make_error(std::nullopt, protocol::invalid_request,
                                  "Invalid Request: JSON-RPC batches are accepted only under protocol version "
                                  "2025-03-26; send one message per line"));
        return;
    }
    if (parsed.value.empty() || parsed.value.size() > max_batch) {
        send(protocol::make_error(std::nullopt, protocol::invalid_request,
                                  parsed.value.empty() ? "Invalid Request: empty batch"
                                                       : "Invalid Request: batch of more than 1024 messages"));
        return;
    }
    auto batch = std::make_shared<Batch>();
    for (auto& element : parsed.value) dispatch(std::move(element), batch);
    batch->dispatching = false;
    if (batch->pending == 0 && !batch->replies.empty()) transport_.send(join_batch(batch->replies));
}

void RpcPeer::dispatch(Json value, const std::shared_ptr<Batch>& batch) {
    protocol::Message message = protocol::classify(std::move(value));
    if (auto* invalid = std::get_if<protocol::Invalid>(&message)) {
        Reply(shared_from_this(), invalid->id, batch, nullptr).error(invalid->code, invalid->message);
        return;
    }
    if (auto* note = std::get_if<protocol::Notification>(&message)) {
        try {
            if (note->method == "notifications/cancelled") cancel(*note);
            else handlers_.notification(*note);
        } catch (const std::exception& e) {
            base::log::error("internal error handling {}: {}", note->method, e.what());
        }
        return;
    }
    if (auto* response = std::get_if<protocol::Response>(&message)) {
        take_response(*response);
        return;
    }
    auto& request = std::get<protocol::Request>(message);
    const std::string key = request.id.key();
    if (in_flight_.count(key)) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(protocol::invalid_request,
                   "Invalid Request: id " + protocol::serialize(request.id.to_json()) + " is already in use by a request in flight");
        return;
    }
    if (in_flight_.size() >= max_in_flight) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(protocol::internal_error, "Too many requests in flight (4096); wait for replies and retry");
        return;
    }
    auto call = std::make_shared<Call>();
    in_flight_.emplace(key, call);
    Reply reply(shared_from_this(), request.id, batch, std::move(call));
    const std::string method = request.method;
    try {
        handlers_.request(std::move(request), std::move(reply));
    } catch (const std::exception& e) {
        // The Reply, destroyed on the way out, has answered with an internal error.
        base::log::error("internal error serving {}: {}", method, e.what());
    }
}

void RpcPeer::cancel(const protocol::Notification& note) {
    const auto id_it = note.params.find("requestId");
    if (id_it == note.params.end()) return;
    const auto id = RequestId::from_json(*id_it);
    if (!id) return;
    if (const auto it = in_flight_.find(id->key()); it != in_flight_.end()) {
        it->second->cancelled->store(true);
        if (it->second->on_cancel) it->second->on_cancel();
        base::log::debug("request {} cancelled by the client", id->key());
    }
}

void RpcPeer::take_response(const protocol::Response& response, std::string malformed) {
    const auto it = outgoing_.find(response.id.key());
    if (it == outgoing_.end()) {
        base::log::debug("ignoring a response to unknown or finished request {}", response.id.key());
        return;
    }
    if (it->second->response) {
        // The first answer to a request decides (an approval form answered twice in one write must
        // not let the second answer overturn the first before the waiting call has looked).
        base::log::warn("ignoring a second response to request {}: the first answer to it decides",
                     protocol::serialize(response.id.to_json()));
        return;
    }
    Json message = Json::object();
    if (!malformed.empty()) it->second->malformed = std::move(malformed);
    else if (response.result) message["result"] = *response.result;
    else message["error"] = *response.error;
    it->second->response = std::move(message);
    it->second->wake->cancel();
}

asio::awaitable<RpcPeer::Answer> RpcPeer::ask(std::string method, Json params,
                                              std::chrono::steady_clock::time_point deadline,
                                              std::shared_ptr<Call> call, std::function<void()> tick) {
    Answer answer;
    if (outgoing_.size() >= max_outgoing) {
        answer.refused = true;
        co_return answer;
    }
    if (input_ended_) {
        // Nobody is left to answer (a call that waited for another's lane comes here after EOF):
        // abandoned like the calls that were waiting when input ended, not left to its deadline.
        if (call) call->cancelled->store(true);
        answer.cancelled = true;
        co_return answer;
    }
    const RequestId id(next_outgoing_id_++);
    auto pending = std::make_shared<Outgoing>();
    // A timer, not a channel: it is the deadline and the progress tick as well as the wake-up.
    pending->wake = std::make_shared<asio::steady_timer>(io_);
    outgoing_.emplace(id.key(), pending);
    send(protocol::make_request(id, method, std::move(params)));
    if (call) call->on_cancel = [pending] { pending->wake->cancel(); };
    const auto tick_every = std::chrono::seconds(5);
    while (!pending->response && !(call && call->cancelled->load())) {
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) break;
        pending->wake->expires_at(std::min(deadline, now + tick_every));
        asio::error_code ec;
        co_await pending->wake->async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (!ec && !pending->response && tick && std::chrono::steady_clock::now() < deadline) tick();
    }
    outgoing_.erase(id.key());
    if (call) call->on_cancel = nullptr;
    answer.response = std::move(pending->response);
    answer.malformed = std::move(pending->malformed);
    if (call && call->cancelled->load() && answer.response) {
        answer.response.reset();  // answered, but the call it served is gone: nothing comes of it
        answer.cancelled = true;
    } else if (!answer.response) {
        answer.cancelled = call && call->cancelled->load();
        answer.timed_out = !answer.cancelled;
        // The client may still show the form: tell it the request is void. A late answer is ignored.
        notify("notifications/cancelled", {{"requestId", id.to_json()},
                                           {"reason", answer.cancelled ? "the tool call was cancelled" : "no answer in time"}});
    }
    co_return answer;
}

}  // namespace server
