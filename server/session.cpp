// Session: era detection, lifecycle, dispatch, cancellation, batches, logging to the client.
#include "server/session.hpp"

#include "server/approval_form.hpp"
#include "server/logging.hpp"
#include "tools/call_shapes.hpp"
#include "os/hash.hpp"

#include <algorithm>
#include <array>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <spdlog/spdlog.h>

namespace server {

using protocol::RequestId;

namespace {

constexpr std::size_t max_in_flight = 4096;
constexpr std::size_t max_batch = 1024;
constexpr std::size_t max_outgoing = 256;

const Json* find_meta(const Json& params) {
    const auto meta = params.find("_meta");
    return meta != params.end() && meta->is_object() ? &*meta : nullptr;
}

std::optional<std::string> requested_modern_version(const Json& params) {
    const Json* meta = find_meta(params);
    if (!meta) return std::nullopt;
    const auto v = meta->find(std::string(protocol::meta_protocol_version));
    if (v == meta->end() || !v->is_string()) return std::nullopt;
    return v->get<std::string>();
}

struct LevelName {
    std::string_view mcp;
    spdlog::level::level_enum spd;
};

// MCP has eight syslog levels; spdlog six. Several MCP levels share one spdlog level.
constexpr std::array<LevelName, 8> level_names = {{
    {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},
    {"notice", spdlog::level::info},
    {"warning", spdlog::level::warn},
    {"error", spdlog::level::err},
    {"critical", spdlog::level::critical},
    {"alert", spdlog::level::critical},
    {"emergency", spdlog::level::critical},
}};

std::string_view mcp_level(spdlog::level::level_enum level) {
    switch (level) {
        case spdlog::level::trace:
        case spdlog::level::debug: return "debug";
        case spdlog::level::info: return "info";
        case spdlog::level::warn: return "warning";
        case spdlog::level::err: return "error";
        default: return "critical";
    }
}

// Adds a note for the model to a tool's result: to content[0]'s text, after a blank line, and to
// structuredContent's `notes` when it has that array (read's facts have none: text only).
void add_note(tools::ToolResult& outcome, const std::string& note) {
    if (note.empty() || !outcome.input_required.is_null()) return;
    if (!outcome.text.empty()) outcome.text += outcome.text.back() == '\n' ? "\n" : "\n\n";
    outcome.text += note;
    if (!outcome.structured.is_object()) return;
    if (const auto notes = outcome.structured.find("notes"); notes != outcome.structured.end() && notes->is_array())
        notes->push_back(note);
}

}  // namespace

// A request being served: the flag a notifications/cancelled sets.
struct Session::InFlight {
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
    std::function<void()> on_cancel;  // wakes a wait on the client (approval, roots)
};

// A request this server sent to the client, waiting for its response.
struct Session::Outgoing {
    std::shared_ptr<asio::steady_timer> wake;
    std::optional<Json> response;
};

// Replies of one JSON-RPC batch, sent together as one array once the last member is answered.
struct Session::Batch {
    std::vector<Json> replies;
    std::size_t pending = 0;
    bool dispatching = true;  // members are still being dispatched
};

// The one reply a request gets: sent exactly once, dropped when the request was cancelled, and
// an internal error if a handler path forgot to answer.
class Session::Reply {
public:
    Reply(std::shared_ptr<Session> session, std::optional<RequestId> id, std::shared_ptr<Batch> batch,
          std::shared_ptr<InFlight> in_flight)
        : session_(std::move(session)), id_(std::move(id)), batch_(std::move(batch)), in_flight_(std::move(in_flight)) {
        if (batch_) ++batch_->pending;
        ++session_->active_;
    }
    Reply(Reply&& other) noexcept
        : session_(std::move(other.session_)), id_(std::move(other.id_)), batch_(std::move(other.batch_)),
          in_flight_(std::move(other.in_flight_)) {}
    Reply& operator=(Reply&&) = delete;
    Reply(const Reply&) = delete;
    ~Reply() {
        if (session_) error(protocol::internal_error, "Internal error: the request ended without a reply");
    }

    const std::optional<RequestId>& id() const { return id_; }
    bool cancelled() const { return in_flight_ && in_flight_->cancelled->load(); }

    void result(Json result) {
        if (!session_) return;
        finish(id_ ? protocol::make_result(*id_, std::move(result)) : Json());
    }
    void error(int code, std::string_view message, const Json& data = Json()) {
        if (!session_) return;
        finish(protocol::make_error(id_, code, message, data));
    }

private:
    void finish(Json message) {
        auto session = std::move(session_);
        if (in_flight_ && id_) session->in_flight_.erase(id_->key());
        const bool drop = cancelled() || message.is_null();
        if (batch_) {
            if (!drop) batch_->replies.push_back(std::move(message));
            if (--batch_->pending == 0 && !batch_->dispatching && !batch_->replies.empty())
                session->send(Json(std::move(batch_->replies)));
        } else if (!drop) {
            session->send(message);
        }
        session->request_finished();
    }

    std::shared_ptr<Session> session_;
    std::optional<RequestId> id_;
    std::shared_ptr<Batch> batch_;
    std::shared_ptr<InFlight> in_flight_;
};

Session::Session(asio::io_context& io, asio::any_io_executor blocking, const Config& config,
                 StdioTransport& transport, const os::Workspace& workspace, const tools::Registry& registry)
    : io_(io),
      blocking_(std::move(blocking)),
      config_(config),
      transport_(transport),
      workspace_(workspace),
      registry_(registry),
      lanes_(io.get_executor()),
      roots_fetched_(io, asio::steady_timer::time_point::max()),
      idle_signal_(io, asio::steady_timer::time_point::max()) {}

void Session::send(const Json& message) { transport_.send(protocol::serialize(message)); }

void Session::request_finished() {
    if (active_ > 0) --active_;
    // finished() waits for both; waking it before input has ended would only put it to sleep again.
    if (active_ == 0 && input_ended_) idle_signal_.cancel();
}

asio::awaitable<void> Session::finished() {
    while (!(input_ended_ && active_ == 0)) {
        asio::error_code ignored;
        idle_signal_.expires_at(asio::steady_timer::time_point::max());
        co_await idle_signal_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    }
}

void Session::on_eof() {
    input_ended_ = true;
    // Nobody is left to answer an approval form or a roots/list: calls waiting on the client are
    // abandoned (nothing written); work that needs no answer finishes.
    for (auto& [key, call] : in_flight_) {
        if (!call->on_cancel) continue;
        call->cancelled->store(true);
        call->on_cancel();
    }
    if (active_ == 0) idle_signal_.cancel();
}

void Session::shut_down() {
    transport_.stop_reading();
    on_eof();
}

void Session::on_oversized(std::size_t bytes) {
    send(protocol::make_error(std::nullopt, protocol::invalid_request,
                              "Invalid Request: message of " + std::to_string(bytes) +
                                  " bytes is over the limit of " + std::to_string(config_.max_message_size) +
                                  " bytes (--max-message-size); it was skipped"));
}

void Session::on_line(std::string line) {
    protocol::ParsedLine parsed = protocol::parse_line(line);
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
    if (!(era_ == protocol::Era::legacy && protocol::allows_batches(version_))) {
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
    if (batch->pending == 0 && !batch->replies.empty()) send(Json(std::move(batch->replies)));
}

void Session::dispatch(Json value, const std::shared_ptr<Batch>& batch) {
    protocol::Message message = protocol::classify(std::move(value));
    if (auto* invalid = std::get_if<protocol::Invalid>(&message)) {
        Reply(shared_from_this(), invalid->id, batch, nullptr).error(invalid->code, invalid->message);
        return;
    }
    if (auto* note = std::get_if<protocol::Notification>(&message)) {
        handle_notification(*note);
        return;
    }
    if (auto* response = std::get_if<protocol::Response>(&message)) {
        handle_response(*response);
        return;
    }
    auto& request = std::get<protocol::Request>(message);
    const std::string key = request.id.key();
    if (in_flight_.count(key)) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(protocol::invalid_request, "Invalid Request: id " + request.id.to_json().dump() + " is already in use by a request in flight");
        return;
    }
    if (in_flight_.size() >= max_in_flight) {
        Reply(shared_from_this(), request.id, batch, nullptr)
            .error(protocol::internal_error, "Too many requests in flight (4096); wait for replies and retry");
        return;
    }
    auto state = std::make_shared<InFlight>();
    in_flight_.emplace(key, state);
    Reply reply(shared_from_this(), request.id, batch, state);
    handle_request(std::move(request), std::move(reply));
}

void Session::handle_notification(const protocol::Notification& note) {
    if (note.method == "notifications/initialized") {
        if (era_ == protocol::Era::legacy) initialized_ = true;
    } else if (note.method == "notifications/cancelled") {
        const auto id_it = note.params.find("requestId");
        if (id_it == note.params.end()) return;
        const auto id = RequestId::from_json(*id_it);
        if (!id) return;
        if (const auto it = in_flight_.find(id->key()); it != in_flight_.end()) {
            it->second->cancelled->store(true);
            if (it->second->on_cancel) it->second->on_cancel();
            spdlog::debug("request {} cancelled by the client", id->key());
        }
    } else if (note.method == "notifications/roots/list_changed") {
        roots_stale_ = true;
        ++roots_generation_;  // a roots/list out now may answer with the old roots: asked again next call
    } else {
        spdlog::debug("ignoring notification {}", note.method);
    }
}

Json Session::server_capabilities() const {
    Json caps = {{"tools", {{"listChanged", false}}}};
    if (era_ != protocol::Era::modern) caps["logging"] = Json::object();
    return caps;
}

Json Session::initialize(const Json& params) {
    const std::string requested = params.value("protocolVersion", "");
    version_ = protocol::is_legacy_version(requested) ? requested : std::string(protocol::legacy_versions.front());
    client_capabilities_ = params.value("capabilities", Json::object());
    client_info_ = params.value("clientInfo", Json::object());
    Json server_info = {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}};
    if (protocol::has_structured_output(version_)) server_info["title"] = "mcp-edit: safe file editing";
    spdlog::info("initialize: client {} {} asked {}, speaking {}", client_info_.value("name", "?"),
                 client_info_.value("version", "?"), requested, version_);
    return {{"protocolVersion", version_},
            {"capabilities", server_capabilities()},
            {"serverInfo", server_info},
            {"instructions", instructions()}};
}

std::string Session::instructions() const {
    std::string text =
        "File tools with exact, byte-preserving edits. Read a file before changing it; every change returns a unified diff.";
    if (!config_.misconfiguration.empty()) text = config_.misconfiguration + "\n\n" + text;
    if (config_.warnings.empty()) return text;
    text += "\n\nConfiguration problem: ";
    for (std::size_t i = 0; i < config_.warnings.size(); ++i) text += (i ? "; " : "") + config_.warnings[i];
    return text + ". " + std::string(how_to_fix_arguments);
}

Json Session::discover_result() const {
    Json versions = Json::array({std::string(protocol::modern_version)});
    for (auto v : protocol::legacy_versions) versions.push_back(std::string(v));
    return {{"resultType", "complete"},
            {"supportedVersions", versions},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"instructions", instructions()},
            {"ttlMs", 3600000},
            {"cacheScope", "public"},
            {"_meta", {{std::string(protocol::meta_server_info), {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}}}}}};
}

Json Session::tools_list_result(const Json& capabilities) const {
    // Each mutating tool's description says whether this client will be asked before a write.
    std::string approval_note;
    if (config_.approval == ApprovalPolicy::automatic) {
        approval_note = " Changes are written without asking the user (server policy --approval auto).";
    } else if (client_can_elicit(capabilities)) {
        approval_note = " Every change is shown to the user as a diff and written only if they approve it.";
    } else if (config_.approval == ApprovalPolicy::require) {
        approval_note = " This server requires the user's approval, which this client cannot show: changes will be refused; use dry_run to propose them.";
    } else {
        approval_note = " This client cannot show approval forms, so changes are written at once (server policy --approval ask); the result carries the diff.";
    }
    Json tools = registry_.list();
    for (auto& t : tools)
        if (t.value("annotations", Json::object()).value("readOnlyHint", false) == false)
            t["description"] = t["description"].get<std::string>() + approval_note;
    Json result = {{"tools", std::move(tools)}};
    if (era_ == protocol::Era::modern) {
        result["resultType"] = "complete";
        result["ttlMs"] = 3600000;
        // The descriptions depend on the client's capabilities (will it be asked?): not shareable.
        result["cacheScope"] = "private";
    }
    return result;
}

void Session::handle_request(protocol::Request request, Reply reply) {
    const std::string& method = request.method;
    static const std::array<std::string_view, 6> known = {"initialize", "ping", "tools/list", "tools/call",
                                                          "logging/setLevel", "server/discover"};
    const bool is_known = std::find(known.begin(), known.end(), method) != known.end();

    if (method == "initialize") {
        if (era_ == protocol::Era::modern) {
            reply.error(protocol::invalid_request,
                        "Invalid Request: this connection speaks protocol 2026-07-28, which has no initialize; "
                        "keep sending _meta with each request");
        } else if (era_ == protocol::Era::legacy) {
            reply.error(protocol::invalid_request, "Invalid Request: initialize was already received on this connection");
        } else {
            era_ = protocol::Era::legacy;
            reply.result(initialize(request.params));
        }
        return;
    }

    const auto modern_version = requested_modern_version(request.params);
    if (era_ != protocol::Era::legacy && (modern_version || method == "server/discover")) {
        if (method == "server/discover") {
            reply.result(discover_result());
            return;
        }
        if (*modern_version != protocol::modern_version) {
            Json supported = Json::array({std::string(protocol::modern_version)});
            reply.error(protocol::unsupported_protocol_version,
                        "Unsupported protocol version " + *modern_version + "; this server speaks " +
                            std::string(protocol::modern_version) + " with per-request _meta, or " +
                            "2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 through initialize",
                        {{"requested", *modern_version}, {"supported", supported}});
            return;
        }
        if (era_ == protocol::Era::undecided) spdlog::info("speaking {} (stateless, per-request _meta)", *modern_version);
        era_ = protocol::Era::modern;
        version_ = *modern_version;
        if (method == "tools/list") {
            reply.result(tools_list_result(find_meta(request.params)->value(std::string(protocol::meta_client_capabilities), Json::object())));
        } else if (method == "tools/call") {
            auto state = in_flight_.at(request.id.key());
            asio::co_spawn(io_, call_tool(std::move(request), std::move(reply), std::move(state)), asio::detached);
        } else {
            reply.error(protocol::method_not_found, "Method not found: " + method +
                                                        (is_known ? " (not part of protocol 2026-07-28)" : ""));
        }
        return;
    }

    if (era_ == protocol::Era::undecided) {
        if (method == "ping") {
            reply.result(Json::object());
        } else if (is_known) {
            reply.error(protocol::invalid_request,
                        "Invalid Request: server not initialized. Send initialize first, or use protocol 2026-07-28 "
                        "by including _meta[\"io.modelcontextprotocol/protocolVersion\"] in each request");
        } else {
            reply.error(protocol::method_not_found, "Method not found: " + method);
        }
        return;
    }

    // Legacy era, after initialize.
    if (method == "ping") {
        reply.result(Json::object());
    } else if (method == "tools/list") {
        reply.result(tools_list_result(client_capabilities_));
    } else if (method == "tools/call") {
        auto state = in_flight_.at(request.id.key());
        asio::co_spawn(io_, call_tool(std::move(request), std::move(reply), std::move(state)), asio::detached);
    } else if (method == "logging/setLevel") {
        const std::string level = request.params.value("level", "");
        for (const auto& l : level_names) {
            if (l.mcp == level) {
                client_log_level_ = l.spd;
                follow_client_level(config_.log_level, l.spd);
                reply.result(Json::object());
                return;
            }
        }
        reply.error(protocol::invalid_params,
                    "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency");
    } else {
        reply.error(protocol::method_not_found, "Method not found: " + method);
    }
}

asio::awaitable<void> Session::call_tool(protocol::Request request, Reply reply, std::shared_ptr<InFlight> state) {
    Json& params = request.params;
    const auto name_it = params.find("name");
    if (name_it == params.end() || !name_it->is_string()) {
        reply.error(protocol::invalid_params, "Invalid params: tools/call needs \"name\", a string");
        co_return;
    }
    std::string name = name_it->get<std::string>();
    const tools::ToolDefinition* tool = registry_.find(name);
    if (!tool) {
        std::string available;
        for (const auto& n : registry_.names()) available += (available.empty() ? "" : ", ") + n;
        reply.error(protocol::invalid_params, "Unknown tool: " + name + ". Available tools: " + available);
        co_return;
    }
    Json args = Json::object();
    if (const auto a = params.find("arguments"); a != params.end() && !a->is_null()) {
        if (!a->is_object()) {
            reply.error(protocol::invalid_params, "Invalid params: \"arguments\" must be an object");
            co_return;
        }
        args = std::move(*a);  // nothing reads params["arguments"] after this
    }
    // Other agents' call shapes (Anthropic's `command`, pi's and Kimi's edit lists, Roo's XML) may
    // name another of our tools: the call is served, and its permissions asked, as that tool.
    tools::CallShape shape = tools::map_call_shape(name, args);
    if (const tools::ToolDefinition* mapped = registry_.find(shape.tool); mapped && mapped != tool) {
        tool = mapped;
        name = shape.tool;
    }
    tools::Registry::apply_aliases(args);

    ++tool_calls_;
    struct Leave {
        std::size_t& count;
        bool left = false;
        void now() {
            if (!left) --count;
            left = true;
        }
        ~Leave() { now(); }
    } leave{tool_calls_};
    tools::ToolResult outcome;
    // A server without a usable root says why on every call (without --root, the client's roots
    // may still supply a workspace; client roots never widen a --root that was given).
    std::shared_ptr<const os::Workspace> workspace;
    bool misconfigured = !config_.misconfiguration.empty();
    if (misconfigured && !config_.roots_given) {
        workspace = co_await call_workspace(state);
        misconfigured = workspace->roots().empty();
    }
    tools::UnknownArguments unknown;
    if (misconfigured) {
        outcome = tools::ToolResult::error(config_.misconfiguration, base::ErrorReason::no_root);
    } else if (shape.error) {
        outcome = tools::ToolResult::error(std::move(*shape.error), base::ErrorReason::invalid_arguments);
    } else if (unknown = registry_.set_aside_unknown_arguments(*tool, args); unknown.error) {
        outcome = tools::ToolResult::error(std::move(*unknown.error), base::ErrorReason::invalid_arguments);
    } else if (auto problem = registry_.validate(*tool, args)) {
        outcome = tools::ToolResult::error(std::move(*problem), base::ErrorReason::invalid_arguments);
    } else {
        if (!workspace) workspace = co_await call_workspace(state);
        tools::CallContext ctx{*workspace, file_states_, lanes_, {}, blocking_};
        ctx.limits.max_file_size = config_.max_file_size;
        ctx.fsync = config_.fsync;
        ctx.cancelled = state->cancelled;
        ctx.history = &history_;
        ctx.fuzzy_threshold = config_.fuzzy_threshold;
        ctx.alone = [this] { return tool_calls_ == 1; };
        if (const Json* meta = find_meta(params)) {
            if (const auto token = meta->find("progressToken");
                token != meta->end() && (token->is_string() || token->is_number_integer())) {
                std::weak_ptr<Session> weak = weak_from_this();
                ctx.progress = [this, weak, token = *token, last = std::make_shared<double>(-1)](
                                   double progress, double total, std::string text) {
                    asio::post(io_, [weak, token, last, progress, total, text = std::move(text)] {
                        auto self = weak.lock();
                        if (!self || progress <= *last) return;
                        *last = progress;
                        Json p = {{"progressToken", token}, {"progress", progress}};
                        if (total > 0) p["total"] = total;
                        if (!text.empty()) p["message"] = text;
                        self->send(protocol::make_notification("notifications/progress", std::move(p)));
                    });
                };
            }
        }
        ctx.approve = make_gate(name, args, params, state, ctx.progress);
        try {
            outcome = co_await registry_.handler(*tool)(ctx, args);
        } catch (const std::exception& e) {
            spdlog::error("tool {} failed: {}", name, e.what());
            outcome = tools::ToolResult::error(std::string("Internal error in ") + name + ": " + e.what() +
                                               ". The file was not changed.",
                                               base::ErrorReason::internal);
        }
    }

    // Said once, to the first call the client's roots affect; then what this call's arguments lost.
    if (workspace && outcome.input_required.is_null()) add_note(outcome, std::exchange(roots_note_, {}));
    std::string shape_note;
    for (const auto& note : shape.notes) shape_note += (shape_note.empty() ? "" : " ") + note;
    add_note(outcome, shape_note);
    add_note(outcome, unknown.note);

    if (!outcome.input_required.is_null()) {
        reply.result(std::move(outcome.input_required));
        co_return;
    }
    const auto text_item = [](std::string& text) {
        Json::object_t item;
        item.emplace("type", "text");
        item.emplace("text", std::move(text));
        return Json(std::move(item));
    };
    Json content = Json::array();
    content.push_back(text_item(outcome.text));
    if (!outcome.extra_text.empty()) content.push_back(text_item(outcome.extra_text));
    Json result = {{"content", std::move(content)}};
    if (outcome.is_error) {
        result["isError"] = true;
        // Why, as a word (structuredContent would hide content[0] from some hosts; errors have none).
        result["_meta"] = {{base::reason_meta_key, base::to_string(outcome.reason)}};
    } else if (!outcome.structured.is_null()) result["structuredContent"] = std::move(outcome.structured);
    if (era_ == protocol::Era::modern) result["resultType"] = "complete";
    reply.result(std::move(result));

    leave.now();  // a call that comes in meanwhile is alone (see ctx.alone)
    if (outcome.after_reply) {
        // Let the writer put the reply out first (it was woken before this resumes), then the
        // bookkeeping the reply did not need; what it holds (the lane) is released here, on the
        // io thread.
        co_await asio::post(io_, asio::use_awaitable);
        const auto bookkeeping = [&outcome, &name] {
            try {
                outcome.after_reply();
            } catch (const std::exception& e) {
                spdlog::error("{}: bookkeeping after the write failed: {}", name, e.what());
            }
            return true;
        };
        if (outcome.after_reply_heavy) co_await tools::offload(blocking_, bookkeeping);
        else bookkeeping();
        outcome.after_reply = nullptr;
    }
}

void Session::handle_response(const protocol::Response& response) {
    const auto it = outgoing_.find(response.id.key());
    if (it == outgoing_.end()) {
        spdlog::debug("ignoring a response to unknown or finished request {}", response.id.key());
        return;
    }
    if (it->second->response) {
        // The first answer to a request decides (an approval form answered twice in one write must
        // not let the second answer overturn the first before the waiting call has looked).
        spdlog::warn("ignoring a second response to request {}: the first answer to it decides", response.id.to_json().dump());
        return;
    }
    Json message = Json::object();
    if (response.result) message["result"] = *response.result;
    else message["error"] = *response.error;
    it->second->response = std::move(message);
    it->second->wake->cancel();
}

asio::awaitable<Session::ClientAnswer> Session::ask_client(std::string method, Json params,
                                                           std::chrono::steady_clock::time_point deadline,
                                                           std::shared_ptr<InFlight> call, std::function<void()> tick) {
    ClientAnswer answer;
    if (outgoing_.size() >= max_outgoing) {
        answer.refused = true;
        co_return answer;
    }
    const RequestId id(next_outgoing_id_++);
    auto pending = std::make_shared<Outgoing>();
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
    if (call && call->cancelled->load() && answer.response) {
        answer.response.reset();  // answered, but the call it served is gone: nothing comes of it
        answer.cancelled = true;
    } else if (!answer.response) {
        answer.cancelled = call && call->cancelled->load();
        answer.timed_out = !answer.cancelled;
        // The client may still show the form: tell it the request is void. A late answer is ignored.
        send(protocol::make_notification("notifications/cancelled",
                                         {{"requestId", id.to_json()},
                                          {"reason", answer.cancelled ? "the tool call was cancelled" : "no answer in time"}}));
    }
    co_return answer;
}

bool Session::client_can_elicit(const Json& capabilities) const {
    const auto e = capabilities.find("elicitation");
    if (e == capabilities.end() || !e->is_object()) return false;
    // `elicitation: {}` means form mode; otherwise it must list `form`.
    return e->empty() || e->contains("form");
}

asio::awaitable<std::shared_ptr<const os::Workspace>> Session::call_workspace(std::shared_ptr<InFlight> call) {
    std::shared_ptr<const os::Workspace> base(std::shared_ptr<const os::Workspace>(), &workspace_);
    if (era_ != protocol::Era::legacy || !client_capabilities_.contains("roots")) co_return base;
    // A call that finds a roots/list out waits for it; if that one is abandoned (its call was
    // cancelled), the next round asks anew. Four rounds at most.
    for (int round = 0; round < 4; ++round) {
        if (!roots_stale_ && client_workspace_) co_return client_workspace_;
        if (!roots_fetching_) co_return co_await fetch_client_roots(call);
        co_await wait_for_client_roots(call);
        if (call && call->cancelled->load()) break;
    }
    co_return client_workspace_ ? client_workspace_ : base;
}

asio::awaitable<std::shared_ptr<const os::Workspace>> Session::fetch_client_roots(std::shared_ptr<InFlight> call) {
    std::shared_ptr<const os::Workspace> base(std::shared_ptr<const os::Workspace>(), &workspace_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    const std::uint64_t generation = roots_generation_;
    roots_fetching_ = true;
    // Waiting calls give up a little after this roots/list must have ended anyway.
    roots_fetched_.expires_at(deadline + std::chrono::seconds(1));
    ClientAnswer answer = co_await ask_client("roots/list", Json::object(), deadline, call, nullptr);
    roots_fetching_ = false;
    roots_fetched_.cancel();
    if (answer.cancelled || answer.refused) co_return base;  // nothing learnt: the next call asks again

    std::vector<std::string> uris;
    const Json roots = answer.response && answer.response->contains("result") && (*answer.response)["result"].is_object()
                           ? (*answer.response)["result"].value("roots", Json())
                           : Json();
    if (!roots.is_array()) {
        // Asked again only after notifications/roots/list_changed: a client that cannot answer
        // should not cost every call a wait.
        spdlog::warn("roots/list got no usable answer ({}); using {} until the client's roots change",
                     answer.timed_out ? "no reply in 10 s" : "an error or malformed reply",
                     config_.roots_given ? "--root" : "the working directory");
    } else {
        // As many as the message held (bounded by --max-message-size); the workspace examines
        // the first os::Workspace::max_client_roots.
        for (const auto& root : roots)
            if (root.is_object() && root.contains("uri") && root["uri"].is_string()) uris.push_back(root["uri"].get<std::string>());
    }
    auto outcome = workspace_.with_client_roots(uris, config_.roots_given);
    client_workspace_ = std::make_shared<const os::Workspace>(std::move(outcome.workspace));
    roots_stale_ = generation != roots_generation_;
    if (outcome.note != last_roots_note_) {
        if (!outcome.note.empty()) spdlog::warn("{}", outcome.note);
        roots_note_ = outcome.note;
        last_roots_note_ = outcome.note;
    }
    spdlog::info("client roots: the workspace is {} ({})",
                 client_workspace_->roots().empty() ? std::string("(nothing)") : os::Workspace::list_text(client_workspace_->roots()),
                 client_workspace_->origin().empty() ? std::string("--root") : client_workspace_->origin());
    co_return client_workspace_;
}

asio::awaitable<void> Session::wait_for_client_roots(std::shared_ptr<InFlight> call) {
    // A cancelled call (or the end of input) wakes every waiting call; the others wait again.
    std::weak_ptr<Session> weak = weak_from_this();
    if (call) call->on_cancel = [weak] {
        if (auto self = weak.lock()) self->roots_fetched_.cancel();
    };
    while (roots_fetching_ && !(call && call->cancelled->load())) {
        asio::error_code ec;
        co_await roots_fetched_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (!ec) break;  // past the roots/list's own deadline: stop waiting
    }
    if (call) call->on_cancel = nullptr;
}

tools::ApprovalGate Session::make_gate(const std::string& tool, const Json& args, const Json& params,
                                       std::shared_ptr<InFlight> call,
                                       std::function<void(double, double, std::string)> progress) {
    using Decision = tools::ApprovalDecision;
    const bool modern = era_ == protocol::Era::modern;
    bool can_ask = false;
    if (modern) {
        const Json* meta = find_meta(params);
        can_ask = client_can_elicit(meta ? meta->value(std::string(protocol::meta_client_capabilities), Json::object())
                                         : Json::object());
    } else {
        can_ask = client_can_elicit(client_capabilities_);
    }
    // Who renders the form (see FormOptions): the client's name, per request in 2026-07-28.
    std::string client_name = client_info_.value("name", "");
    if (modern) {
        const Json* meta = find_meta(params);
        const Json info = meta ? meta->value(std::string(protocol::meta_client_info), Json::object()) : Json::object();
        client_name = info.is_object() ? info.value("name", "") : "";
    }
    std::weak_ptr<Session> weak = weak_from_this();
    // `args` and `params` belong to the tools/call that holds this gate, which is only called
    // while that call runs: they are referred to, not copied.
    return [weak, modern, can_ask, client_name, tool, args = &args, params = &params, call, progress](const tools::ApprovalRequest& ask)
               -> asio::awaitable<Decision> {
        Decision d;
        auto self = weak.lock();
        if (!self) co_return d;
        const Config& config = self->config_;
        if (config.approval == ApprovalPolicy::automatic) {
            d.kind = Decision::Kind::approved;
            d.approval = "policy";
            co_return d;
        }
        if (self->approved_for_session_) {
            d.kind = Decision::Kind::approved;
            d.approval = "session";
            co_return d;
        }
        if (!can_ask) {
            if (config.approval == ApprovalPolicy::require) {
                d.message = "Refused: this server requires the user's approval for every change (--approval require), "
                            "and this client cannot show an approval form (it did not declare elicitation). Nothing was "
                            "written. Show the user the change (call again with dry_run: true for the diff) and let them apply it.";
                d.reason = base::ErrorReason::approval_unavailable;
                co_return d;
            }
            d.kind = Decision::Kind::approved;
            d.approval = "policy";
            d.message = "(Written without asking: this client cannot show approval forms; the server policy is --approval ask.)";
            co_return d;
        }
        const std::string what = "this " + ask.tool + " of " + (ask.paths.empty() ? std::string("the file") : ask.paths.front());
        FormOptions form_options;
        form_options.version = modern ? protocol::modern_version : std::string_view(self->version_);
        form_options.feedback_field = client_name != "codex-mcp-client";
        if (!shows_whole(ask))
            form_options.full_diff_path = self->diff_spool_.keep(ask.diff);
        const Json form = approval_form(ask, form_options);

        if (!modern) {
            double ticks = 0;
            auto tick = [progress, &ticks] { progress(++ticks, 0, "waiting for the user's approval"); };
            if (ask.waiting_for_human) ask.waiting_for_human();
            ClientAnswer answer = co_await self->ask_client(
                "elicitation/create", form, std::chrono::steady_clock::now() + config.approval_timeout, call, tick);
            if (answer.refused) {
                d.message = "Too many approval requests are waiting for the user; nothing was written. Try again once they are answered.";
                d.reason = base::ErrorReason::approval_unavailable;
            } else if (answer.cancelled) {
                d.message = "Cancelled by the client while waiting for approval; nothing was written.";
                d.reason = base::ErrorReason::cancelled;
            } else if (answer.timed_out) {
                d.message = "No answer to the approval request within " + std::to_string(config.approval_timeout.count()) +
                            " s, so it counts as rejected: nothing was written. Ask the user, then call again.";
                d.reason = base::ErrorReason::timeout;
            } else if (!answer.response->contains("result")) {
                d.message = "The client could not show the approval form (" +
                            (*answer.response)["error"].value("message", std::string("error")) + "); nothing was written.";
                d.reason = base::ErrorReason::approval_unavailable;
            } else {
                d = self->decide(read_approval_answer((*answer.response)["result"]), what);
            }
            co_return d;
        }

        // 2026-07-28: Multi Round-Trip Requests. The first call answers input_required with a signed
        // requestState; the retry carries the user's answer and the state back.
        ApprovalBinding binding{tool, canonical_digest(*args), Json::object(), Json::object()};
        for (const auto& image : ask.images) {
            binding.pre_images[image.real_path] = image.before ? os::sha256_hex(*image.before) : std::string("absent");
            binding.post_images[image.real_path] = image.after ? os::sha256_hex(*image.after) : std::string("deleted");
        }
        const auto now = std::chrono::system_clock::now();
        auto ask_again = [&](const std::string& why) {
            Decision again;
            again.kind = Decision::Kind::input_required;
            Json request_form = form;
            // On the first line, which every host shows.
            if (!why.empty()) request_form["message"] = why + " " + request_form["message"].get<std::string>();
            again.input_required = {
                {"resultType", "input_required"},
                {"inputRequests", {{"approval", {{"method", "elicitation/create"}, {"params", request_form}}}}},
                {"requestState", self->signer_.sign(binding, now + config.approval_timeout)}};
            return again;
        };
        const auto state_it = params->find("requestState");
        if (state_it == params->end() || !state_it->is_string()) co_return ask_again("");
        const auto checked = self->signer_.verify(state_it->get<std::string>(), now);
        using Verdict = RequestStateSigner::Verdict;
        if (checked.verdict == Verdict::expired) {
            d.message = "The approval request expired (after " + std::to_string(config.approval_timeout.count()) +
                        " s); nothing was written. Call the tool again without requestState to ask anew.";
            d.reason = base::ErrorReason::timeout;
            co_return d;
        }
        if (checked.verdict != Verdict::valid) {
            d.message = "Refused: requestState was not issued by this server or was altered; nothing was written. "
                        "Call the tool again without requestState and inputResponses.";
            d.reason = base::ErrorReason::invalid_arguments;
            co_return d;
        }
        if (checked.binding.tool != binding.tool || checked.binding.arguments_digest != binding.arguments_digest) {
            d.message = "Refused: requestState belongs to a different tool call (other tool or arguments); nothing was "
                        "written. Retry with exactly the arguments of the call that asked, or call again without requestState.";
            d.reason = base::ErrorReason::invalid_arguments;
            co_return d;
        }
        if (checked.binding.pre_images != binding.pre_images || checked.binding.post_images != binding.post_images)
            co_return ask_again("(Changed on disk since approval was asked; this is the new change.)");
        const Json responses = params->value("inputResponses", Json::object());
        if (!responses.is_object() || !responses.contains("approval")) co_return ask_again("");
        co_return self->decide(read_approval_answer(responses["approval"]), what);
    };
}

tools::ApprovalDecision Session::decide(const ApprovalAnswer& answer, const std::string& what) {
    tools::ApprovalDecision d;
    d.feedback = answer.feedback;
    if (answer.kind == ApprovalAnswer::Kind::apply || answer.kind == ApprovalAnswer::Kind::apply_session) {
        d.kind = tools::ApprovalDecision::Kind::approved;
        d.approval = answer.kind == ApprovalAnswer::Kind::apply ? "user" : "session";
        if (answer.kind == ApprovalAnswer::Kind::apply_session) approved_for_session_ = true;
    } else {
        d.message = refusal_message(answer, what);
        d.reason = answer.kind == ApprovalAnswer::Kind::cancel ? base::ErrorReason::cancelled : base::ErrorReason::rejected;
    }
    return d;
}

void Session::forward_log(spdlog::level::level_enum level, const std::string& logger, const std::string& text) {
    if (era_ != protocol::Era::legacy || !initialized_ || !client_log_level_ || level < *client_log_level_) return;
    send(protocol::make_notification("notifications/message",
                                     {{"level", mcp_level(level)}, {"logger", logger}, {"data", text}}));
}

}  // namespace server
