// Session: era detection, lifecycle, dispatch, cancellation, batches, logging to the client.
#include "server/session.hpp"

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

}  // namespace

// A request being served: the flag a notifications/cancelled sets.
struct Session::InFlight {
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
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
                 StdioTransport& transport, const Workspace& workspace, const tools::Registry& registry)
    : io_(io),
      blocking_(std::move(blocking)),
      config_(config),
      transport_(transport),
      workspace_(workspace),
      registry_(registry),
      lanes_(io.get_executor()),
      idle_signal_(io, asio::steady_timer::time_point::max()) {}

void Session::send(const Json& message) { transport_.send(protocol::serialize(message)); }

void Session::request_finished() {
    if (active_ > 0) --active_;
    if (active_ == 0) idle_signal_.cancel();
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
        // No server-to-client request is outstanding yet: a stray response is ignored.
        spdlog::debug("ignoring a response to unknown request {}", response->id.key());
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
            spdlog::debug("request {} cancelled by the client", id->key());
        }
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
            {"instructions",
             "File tools with exact, byte-preserving edits. Read a file before changing it; every change "
             "returns a unified diff."}};
}

Json Session::discover_result() const {
    Json versions = Json::array({std::string(protocol::modern_version)});
    for (auto v : protocol::legacy_versions) versions.push_back(std::string(v));
    return {{"resultType", "complete"},
            {"supportedVersions", versions},
            {"capabilities", {{"tools", {{"listChanged", false}}}}},
            {"instructions",
             "File tools with exact, byte-preserving edits. Read a file before changing it; every change "
             "returns a unified diff."},
            {"ttlMs", 3600000},
            {"cacheScope", "public"},
            {"_meta", {{std::string(protocol::meta_server_info), {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}}}}}};
}

Json Session::tools_list_result() const {
    Json result = {{"tools", registry_.list()}};
    if (era_ == protocol::Era::modern) {
        result["resultType"] = "complete";
        result["ttlMs"] = 3600000;
        result["cacheScope"] = "public";
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
            reply.result(tools_list_result());
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
        reply.result(tools_list_result());
    } else if (method == "tools/call") {
        auto state = in_flight_.at(request.id.key());
        asio::co_spawn(io_, call_tool(std::move(request), std::move(reply), std::move(state)), asio::detached);
    } else if (method == "logging/setLevel") {
        const std::string level = request.params.value("level", "");
        for (const auto& l : level_names) {
            if (l.mcp == level) {
                client_log_level_ = l.spd;
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
    const Json& params = request.params;
    const auto name_it = params.find("name");
    if (name_it == params.end() || !name_it->is_string()) {
        reply.error(protocol::invalid_params, "Invalid params: tools/call needs \"name\", a string");
        co_return;
    }
    const std::string name = name_it->get<std::string>();
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
        args = *a;
    }
    tools::Registry::apply_aliases(args);

    tools::ToolResult outcome;
    if (auto problem = registry_.validate(*tool, args)) {
        outcome = tools::ToolResult::error(std::move(*problem));
    } else {
        tools::CallContext ctx{workspace_, file_states_, lanes_, {}, blocking_};
        ctx.limits.max_file_size = config_.max_file_size;
        ctx.fsync = config_.fsync;
        ctx.cancelled = state->cancelled;
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
        try {
            outcome = co_await registry_.handler(*tool)(ctx, args);
        } catch (const std::exception& e) {
            spdlog::error("tool {} failed: {}", name, e.what());
            outcome = tools::ToolResult::error(std::string("Internal error in ") + name + ": " + e.what() +
                                               ". The file was not changed.");
        }
    }

    Json content = Json::array({{{"type", "text"}, {"text", outcome.text}}});
    if (!outcome.extra_text.empty()) content.push_back({{"type", "text"}, {"text", outcome.extra_text}});
    Json result = {{"content", std::move(content)}};
    if (outcome.is_error) result["isError"] = true;
    else if (!outcome.structured.is_null()) result["structuredContent"] = std::move(outcome.structured);
    if (era_ == protocol::Era::modern) result["resultType"] = "complete";
    reply.result(std::move(result));
}

void Session::forward_log(spdlog::level::level_enum level, const std::string& logger, const std::string& text) {
    if (era_ != protocol::Era::legacy || !initialized_ || !client_log_level_ || level < *client_log_level_) return;
    send(protocol::make_notification("notifications/message",
                                     {{"level", mcp_level(level)}, {"logger", logger}, {"data", text}}));
}

}  // namespace server
