// Endpoint: reply-once, batches, the in-flight table and its cancellation, and requests of ours
// with their deadlines; what both the MCP peer and the LSP client used to spell out each.
#include "protocol/endpoint.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <vector>

#include "base/log.hpp"

namespace protocol {

// Replies of one JSON-RPC batch, sent together as one array once the last member is answered.
struct Endpoint::Batch {
    std::vector<std::string> replies;  // serialized
    std::size_t pending = 0;
    bool dispatching = true;  // members are still being dispatched
};

namespace {

// One batch's replies as the JSON array they are members of.
std::string join_batch(std::vector<std::string>& replies) {
    std::string out = "[";
    for (std::size_t i = 0; i < replies.size(); ++i) out += (i ? "," : "") + std::move(replies[i]);
    return out + "]";
}

std::string duplicate_message(const std::string& where) {
    return "Invalid Request: the key \"" + where +
           "\" appears twice in one object; which one counts would be ambiguous, so the message was not acted on. "
           "Send each key once.";
}

}  // namespace

Endpoint::Reply::Reply(std::shared_ptr<Endpoint> endpoint, std::optional<RequestId> id, std::shared_ptr<Batch> batch,
                       std::shared_ptr<Call> call)
    : endpoint_(std::move(endpoint)), id_(std::move(id)), batch_(std::move(batch)), call_(std::move(call)) {
    if (batch_) ++batch_->pending;
    ++endpoint_->active_;
}

Endpoint::Reply::Reply(Reply&& other) noexcept
    : endpoint_(std::move(other.endpoint_)),
      id_(std::move(other.id_)),
      batch_(std::move(other.batch_)),
      call_(std::move(other.call_)) {}

Endpoint::Reply::~Reply() {
    if (endpoint_) error(internal_error, "Internal error: the request ended without a reply");
}

void Endpoint::Reply::result(Json result, const TooBig& too_big) {
    if (!endpoint_) return;
    finish(id_ ? make_result(*id_, std::move(result)) : Json(), too_big);
}

void Endpoint::Reply::error(int code, std::string_view message, const Json& data) {
    if (!endpoint_) return;
    finish(make_error(id_, code, message, data));
}

void Endpoint::Reply::method_not_found(std::string_view method) {
    error(protocol::method_not_found, "Method not found: " + std::string(method));
}

void Endpoint::Reply::finish(Json message, const TooBig& too_big) {
    auto endpoint = std::move(endpoint_);
    if (call_ && id_) endpoint->in_flight_.erase(id_->key());
    const bool drop = cancelled() || message.is_null();
    std::string text;
    if (!drop) {
        text = serialize(message);
        message = Json();  // freed before anything else is built
        const std::size_t max = endpoint->limits_.max_out;
        if (text.size() > max) {
            const std::size_t bytes = text.size();
            text.clear();
            text.shrink_to_fit();
            base::log::warn("a reply of {} bytes is over the limit of {}; replaced", bytes, max);
            text =
                serialize(too_big && id_ ? make_result(*id_, too_big(bytes))
                                         : make_error(id_, internal_error,
                                                      "Internal error: the reply would be " + base::mebibytes(bytes) +
                                                          ", over the " + base::mebibytes(max) +
                                                          " one message may carry; ask for less at a time"));
        }
    }
    if (batch_) {
        if (!drop) batch_->replies.push_back(std::move(text));
        if (--batch_->pending == 0 && !batch_->dispatching && !batch_->replies.empty())
            endpoint->output_(join_batch(batch_->replies));
    } else if (!drop) {
        endpoint->output_(std::move(text));
    }
    endpoint->reply_finished();
}

std::shared_ptr<Endpoint> Endpoint::make(const Dialect& dialect, Limits limits, Output output, Handlers handlers) {
    return std::make_shared<Endpoint>(dialect, limits, std::move(output), std::move(handlers));
}

Endpoint::Endpoint(const Dialect& dialect, Limits limits, Output output, Handlers handlers)
    : dialect_(dialect), limits_(limits), output_(std::move(output)), handlers_(std::move(handlers)) {}

void Endpoint::send(const Json& message) { output_(serialize(message)); }

void Endpoint::notify(std::string_view method, Json params) { send(make_notification(method, std::move(params))); }

void Endpoint::reply_finished() {
    if (active_ > 0) --active_;
    if (handlers_.reply_done) handlers_.reply_done(active_);
}

void Endpoint::cancel_waiting() {
    // on_cancel may answer its request, which erases it from the table: walk a copy.
    std::vector<std::shared_ptr<Call>> calls;
    for (auto& [key, call] : in_flight_)
        if (call->on_cancel) calls.push_back(call);
    for (auto& call : calls) {
        call->cancelled->store(true);
        if (call->on_cancel) call->on_cancel();
    }
}

void Endpoint::receive(std::string_view body) {
    // Handlers read peer JSON without throwing; should one still throw, the request's Reply
    // (destroyed on the way out) answers it with an internal error, and this message ends here:
    // never the caller's read loop, which would stop answering anything.
    try {
        take(body);
    } catch (const std::exception& e) {
        base::log::error("internal error while serving a message: {}", e.what());
    }
}

void Endpoint::refuse_duplicate(ParsedLine parsed) {
    const std::string message = duplicate_message(parsed.duplicate_key);
    base::log::warn("refused a message with a repeated key {}", parsed.duplicate_key);
    if (parsed.kind == ParsedLine::Kind::batch) {
        send(make_error(std::nullopt, invalid_request, message));
        return;
    }
    Message classified = classify(std::move(parsed.value));
    if (auto* invalid = std::get_if<Invalid>(&classified)) {
        Reply(shared_from_this(), invalid->id, nullptr, nullptr).error(invalid->code, invalid->message);
    } else if (auto* response = std::get_if<Response>(&classified)) {
        take_response(*response, "the key \"" + parsed.duplicate_key + "\" appears twice in one object");
    } else if (auto* request = std::get_if<Request>(&classified)) {
        // An id that was itself repeated cannot be trusted either.
        std::optional<RequestId> id;
        if (parsed.duplicate_key != "id") id = request->id;
        Reply(shared_from_this(), id, nullptr, nullptr).error(invalid_request, message);
    }
    // A notification gets no reply: it is dropped.
}

void Endpoint::take(std::string_view body) {
    ParsedLine parsed = parse_line(body);
    if (parsed.kind != ParsedLine::Kind::failure && !parsed.duplicate_key.empty()) {
        refuse_duplicate(std::move(parsed));
        return;
    }
    switch (parsed.kind) {
        case ParsedLine::Kind::failure: send(make_error(std::nullopt, parsed.code, parsed.message)); return;
        case ParsedLine::Kind::single: dispatch(std::move(parsed.value), nullptr); return;
        case ParsedLine::Kind::batch: break;
    }
    if (!handlers_.batches_allowed || !handlers_.batches_allowed()) {
        send(make_error(std::nullopt, invalid_request, dialect_.no_batches));
        return;
    }
    if (parsed.value.empty() || parsed.value.size() > limits_.max_batch) {
        send(make_error(std::nullopt, invalid_request,
                        parsed.value.empty() ? std::string("Invalid Request: empty batch")
                                             : "Invalid Request: batch of more than " +
                                                   std::to_string(limits_.max_batch) + " messages"));
        return;
    }
    auto batch = std::make_shared<Batch>();
    for (auto& element : parsed.value) dispatch(std::move(element), batch);
    batch->dispatching = false;
    if (batch->pending == 0 && !batch->replies.empty()) output_(join_batch(batch->replies));
}

void Endpoint::dispatch(Json value, const std::shared_ptr<Batch>& batch) {
    Message message = classify(std::move(value));
    if (auto* invalid = std::get_if<Invalid>(&message)) {
        Reply(shared_from_this(), invalid->id, batch, nullptr).error(invalid->code, invalid->message);
        return;
    }
    if (auto* note = std::get_if<Notification>(&message)) {
        try {
            if (note->method == dialect_.cancel_method)
                cancel(*note);
            else if (handlers_.notification)
                handlers_.notification(*note);
        } catch (const std::exception& e) {
            base::log::error("internal error handling {}: {}", note->method, e.what());
        }
        return;
    }
    if (auto* response = std::get_if<Response>(&message)) {
        take_response(*response);
        return;
    }
    auto& request = std::get<Request>(message);
    const std::string key = request.id.key();
    if (in_flight_.count(key)) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(invalid_request, "Invalid Request: id " + serialize(request.id.to_json()) +
                                        " is already in use by a request in flight");
        return;
    }
    if (in_flight_.size() >= limits_.max_in_flight) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(internal_error, "Too many requests in flight (" + std::to_string(limits_.max_in_flight) +
                                       "); wait for replies and retry");
        return;
    }
    auto call = std::make_shared<Call>();
    in_flight_.emplace(key, call);
    Reply reply(shared_from_this(), request.id, batch, std::move(call));
    if (!handlers_.request) {
        reply.method_not_found(request.method);
        return;
    }
    const std::string method = request.method;
    try {
        handlers_.request(std::move(request), std::move(reply));
    } catch (const std::exception& e) {
        // The Reply, destroyed on the way out, has answered with an internal error.
        base::log::error("internal error serving {}: {}", method, e.what());
    }
}

void Endpoint::cancel(const Notification& note) {
    const Json* id_field = member(note.params, dialect_.cancel_id_key);
    if (!id_field) return;
    const auto id = RequestId::from_json(*id_field);
    if (!id) return;
    const auto it = in_flight_.find(id->key());
    if (it == in_flight_.end()) return;  // unknown or finished: ignored
    const std::shared_ptr<Call> call = it->second;
    call->cancelled->store(true);
    if (call->on_cancel) call->on_cancel();
    base::log::debug("request {} cancelled by the other side", id->key());
}

void Endpoint::take_response(const Response& response, std::string malformed) {
    const std::string key = response.id.key();
    const auto it = outgoing_.find(key);
    if (it == outgoing_.end()) {
        // The first answer to a request decides (an approval form answered twice in one write
        // must not let the second answer overturn the first).
        if (std::find(answered_.begin(), answered_.end(), key) != answered_.end())
            base::log::warn("ignoring a second response to request {}: the first answer to it decides",
                            serialize(response.id.to_json()));
        else
            base::log::debug("ignoring a response to unknown or finished request {}", key);
        return;
    }
    Done done = std::move(it->second.second.done);
    outgoing_.erase(it);
    if (answered_.size() >= remembered_answers) answered_.pop_front();
    answered_.push_back(key);
    Outcome outcome;
    outcome.response = Json::object();
    if (!malformed.empty())
        outcome.malformed = std::move(malformed);
    else if (response.result)
        (*outcome.response)["result"] = *response.result;
    else
        (*outcome.response)["error"] = *response.error;
    if (done) done(std::move(outcome));
}

base::Result<RequestId, std::string> Endpoint::request(std::string_view method, Json params, Clock::time_point deadline,
                                                       Done done) {
    if (outgoing_.size() >= limits_.max_outgoing)
        return base::fail(std::to_string(outgoing_.size()) + " requests are already waiting for answers");
    const RequestId id(next_id_++);
    std::string text = serialize(make_request(id, method, std::move(params)));
    if (text.size() > limits_.max_out)
        return base::fail("the request " + std::string(method) + " would be " + base::mebibytes(text.size()) +
                          ", over the " + base::mebibytes(limits_.max_out) + " one message may carry");
    outgoing_.emplace(id.key(), std::pair{id, Outgoing{deadline, std::move(done)}});
    output_(std::move(text));
    return id;
}

void Endpoint::send_cancel(const RequestId& id, std::string_view reason) {
    Json params{{std::string(dialect_.cancel_id_key), id.to_json()}};
    if (dialect_.cancel_has_reason) params["reason"] = reason;
    notify(dialect_.cancel_method, std::move(params));
}

bool Endpoint::withdraw(const RequestId& id, std::string_view reason) {
    const auto it = outgoing_.find(id.key());
    if (it == outgoing_.end()) return false;
    Done done = std::move(it->second.second.done);
    outgoing_.erase(it);
    // The other side may still be working on it (a form on screen): tell it the request is void.
    // A late answer is ignored.
    send_cancel(id, reason);
    Outcome outcome;
    outcome.end = Outcome::End::withdrawn;
    if (done) done(std::move(outcome));
    return true;
}

std::optional<Endpoint::Clock::time_point> Endpoint::expire(Clock::time_point now) {
    std::vector<RequestId> late;
    std::optional<Clock::time_point> earliest;
    for (const auto& [key, entry] : outgoing_) {
        if (entry.second.deadline <= now)
            late.push_back(entry.first);
        else if (!earliest || entry.second.deadline < *earliest)
            earliest = entry.second.deadline;
    }
    for (const RequestId& id : late) {
        const auto it = outgoing_.find(id.key());
        if (it == outgoing_.end()) continue;  // a callback before this one withdrew it
        Done done = std::move(it->second.second.done);
        outgoing_.erase(it);
        send_cancel(id, "no answer in time");
        Outcome outcome;
        outcome.end = Outcome::End::timed_out;
        if (done) done(std::move(outcome));
    }
    return earliest;
}

}  // namespace protocol
