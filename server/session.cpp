// Session: the era chosen by the first request, one method table per era, each request's envelope
// read once, logs forwarded. tools/call is served in server/session_tool_calls.cpp, resources in
// server/session_resources.cpp.
#include "server/session.hpp"

#include <algorithm>
#include <utility>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"
#include "server/logging.hpp"
#include "server/server_description.hpp"

namespace server {

namespace {

// What the workbench takes from the command line.
tools::WorkbenchSettings workbench_settings(const Config& config) {
    tools::WorkbenchSettings settings;
    settings.limits.max_file_size = config.max_file_size;
    settings.fsync = config.fsync;
    settings.write_through_hard_links = config.write_through_hard_links;
    settings.fuzzy_threshold = config.fuzzy_threshold;
    settings.ignore = config.ignore;
    settings.history_budget = config.history_budget;
    settings.history_dir = config.history_dir;
    return settings;
}

// What is wrong with the types of initialize's params, naming the field; nullopt when nothing is.
// (Absent fields are accepted, as they always were: the newest version is then spoken.)
std::optional<std::string> initialize_problem(const Json& params) {
    if (const Json* v = protocol::member(params, "protocolVersion"); v && !v->is_string())
        return "protocolVersion must be a string such as \"2025-11-25\"";
    if (const Json* c = protocol::member(params, "capabilities"); c && !c->is_object())
        return "capabilities must be an object";
    if (const Json* info = protocol::member(params, "clientInfo")) {
        if (!info->is_object()) return "clientInfo must be an object {name, version}";
        for (const char* key : {"name", "version", "title"})
            if (const Json* f = protocol::member(*info, key); f && !f->is_string())
                return "clientInfo." + std::string(key) + " must be a string";
    }
    return std::nullopt;
}

}  // namespace

const Session::MethodTable& Session::legacy_methods() {
    static const MethodTable table = {
        {"initialize", &Session::initialize},
        {"ping", &Session::ping},
        {"tools/list", &Session::list_tools},
        {"tools/call", &Session::call_tool},
        {"logging/setLevel", &Session::set_log_level},
        {"resources/list", &Session::list_resources},
        {"resources/templates/list", &Session::list_resource_templates},
        {"resources/read", &Session::read_resource},
        {"resources/subscribe", &Session::subscribe_resource},
        {"resources/unsubscribe", &Session::unsubscribe_resource},
        {"prompts/list", &Session::list_prompts},
    };
    return table;
}

const Session::MethodTable& Session::modern_methods() {
    static const MethodTable table = {
        {"server/discover", &Session::discover},
        {"tools/list", &Session::list_tools},
        {"tools/call", &Session::call_tool},
        {"resources/list", &Session::list_resources},
        {"resources/templates/list", &Session::list_resource_templates},
        {"resources/read", &Session::read_resource},
        {"prompts/list", &Session::list_prompts},
    };
    return table;
}

const std::vector<std::string_view>& Session::known_methods() {
    static const std::vector<std::string_view> known = [] {
        std::vector<std::string_view> names;
        for (const MethodTable* table : {&legacy_methods(), &modern_methods()})
            for (const auto& [name, method] : *table)
                if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        return names;
    }();
    return known;
}

Session::Session(asio::io_context& io, asio::any_io_executor blocking, const Config& config, Transport& transport,
                 const os::Workspace& workspace, const tools::Registry& registry)
    : io_(io),
      blocking_(std::move(blocking)),
      config_(config),
      workspace_(workspace),
      transport_(transport),
      registry_(registry),
      peer_(std::make_shared<RpcPeer>(
          io, transport, config.max_message_size,
          RpcPeer::Handlers{
              [this](protocol::Request request, Reply reply) { handle_request(std::move(request), std::move(reply)); },
              [this](const protocol::Notification& note) { handle_notification(note); },
              [this] { return era_ == protocol::Era::legacy && protocol::allows_batches(version_); }})),
      workbench_(io.get_executor(), blocking_, registry, workspace, workbench_settings(config)),
      approvals_(config, *peer_),
      roots_(io, *peer_, workspace, config) {
    // Called on the thread that noted the change, while a tool call keeps this session alive.
    workbench_.on_file_changed([this](const std::string& real_path, bool new_file) {
        asio::post(io_, [weak = weak_from_this(), real_path, new_file] {
            if (auto self = weak.lock()) self->on_file_changed(real_path, new_file);
        });
    });
}

Transport::Receiver Session::receiver() {
    std::weak_ptr<Session> weak = weak_from_this();
    return {[weak](std::string line) {
                if (auto self = weak.lock()) self->on_line(std::move(line));
            },
            [weak](std::size_t bytes) {
                if (auto self = weak.lock()) self->on_oversized(bytes);
            },
            [weak] {
                if (auto self = weak.lock()) self->on_eof();
            }};
}

void Session::shut_down() {
    transport_.stop_reading();
    peer_->end_of_input();
}

void Session::handle_notification(const protocol::Notification& note) {
    if (note.method == "notifications/initialized") {
        if (era_ == protocol::Era::legacy) initialized_ = true;
    } else if (note.method == "notifications/roots/list_changed") {
        roots_.changed();
    } else {
        base::log::debug("ignoring notification {}", note.method);
    }
}

void Session::complete(RequestEnvelope& envelope) const {
    complete_envelope(envelope, era_, version_, client_capabilities_, client_info_);
}

void Session::handle_request(protocol::Request request, Reply reply) {
    RequestEnvelope envelope = read_envelope(request.params);  // the one reading of _meta
    // initialize chooses the legacy eras; whatever else comes first with _meta's protocol
    // version (or server/discover, which asks which eras there are) the 2026-07-28 era.
    if (request.method != "initialize" && era_ != protocol::Era::legacy) {
        if (envelope.requested_modern_version || request.method == "server/discover") {
            handle_modern(request, envelope, reply);
            return;
        }
        if (era_ == protocol::Era::undecided) {
            handle_undecided(request, envelope, reply);
            return;
        }
    }
    // The legacy eras; also 2026-07-28 requests that lack _meta, which have always been served so.
    complete(envelope);
    if (const auto it = legacy_methods().find(request.method); it != legacy_methods().end()) {
        (this->*it->second)(request, envelope, reply);
    } else {
        reply.error(protocol::method_not_found, "Method not found: " + request.method);
    }
}

void Session::handle_modern(protocol::Request& request, RequestEnvelope& envelope, Reply& reply) {
    if (request.method == "server/discover") {
        discover(request, envelope, reply);
        return;
    }
    const std::string version = envelope.requested_modern_version.value_or("");
    if (version != protocol::modern_version) {
        Json supported = Json::array({std::string(protocol::modern_version)});
        reply.error(protocol::unsupported_protocol_version,
                    "Unsupported protocol version " + version + "; this server speaks " +
                        std::string(protocol::modern_version) + " with per-request _meta, or " +
                        "2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 through initialize",
                    {{"requested", version}, {"supported", supported}});
        return;
    }
    if (era_ == protocol::Era::undecided) base::log::info("speaking {} (stateless, per-request _meta)", version);
    era_ = protocol::Era::modern;
    version_ = version;
    complete(envelope);
    if (const auto it = modern_methods().find(request.method); it != modern_methods().end()) {
        (this->*it->second)(request, envelope, reply);
        return;
    }
    const auto& known = known_methods();
    const bool is_known = std::find(known.begin(), known.end(), request.method) != known.end();
    reply.error(protocol::method_not_found,
                "Method not found: " + request.method + (is_known ? " (not part of protocol 2026-07-28)" : ""));
}

void Session::handle_undecided(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply) {
    const auto& known = known_methods();
    if (request.method == "ping") {
        ping(request, envelope, reply);
    } else if (std::find(known.begin(), known.end(), request.method) != known.end()) {
        reply.error(protocol::invalid_request,
                    "Invalid Request: server not initialized. Send initialize first, or use protocol 2026-07-28 "
                    "by including _meta[\"io.modelcontextprotocol/protocolVersion\"] in each request");
    } else {
        reply.error(protocol::method_not_found, "Method not found: " + request.method);
    }
}

void Session::initialize(protocol::Request& request, const RequestEnvelope&, Reply& reply) {
    if (era_ == protocol::Era::modern) {
        reply.error(protocol::invalid_request,
                    "Invalid Request: this connection speaks protocol 2026-07-28, which has no initialize; "
                    "keep sending _meta with each request");
        return;
    }
    if (era_ == protocol::Era::legacy) {
        reply.error(protocol::invalid_request, "Invalid Request: initialize was already received on this connection");
        return;
    }
    if (const auto problem = initialize_problem(request.params)) {
        reply.error(protocol::invalid_params, "Invalid params: " + *problem +
                                                  "; this connection is still not initialized, send initialize again");
        return;
    }
    era_ = protocol::Era::legacy;
    reply.result(initialize_result(request.params));
}

void Session::ping(protocol::Request&, const RequestEnvelope&, Reply& reply) { reply.result(Json::object()); }

void Session::discover(protocol::Request&, const RequestEnvelope&, Reply& reply) {
    reply.result(discover_result(config_));
}

void Session::list_tools(protocol::Request&, const RequestEnvelope& envelope, Reply& reply) {
    reply.result(tools_list_result(config_, registry_, envelope));
}

void Session::set_log_level(protocol::Request& request, const RequestEnvelope&, Reply& reply) {
    const auto level = level_from_mcp(protocol::string_member(request.params, "level").value_or(""));
    if (!level) {
        reply.error(protocol::invalid_params,
                    "Invalid params: level must be a string, one of debug, info, notice, warning, error, critical, "
                    "alert, emergency");
        return;
    }
    client_log_level_ = *level;
    follow_client_level(config_.log_level, *level);
    reply.result(Json::object());
}

Json Session::initialize_result(const Json& params) {
    // Types checked by initialize_problem.
    const std::string requested = protocol::string_member(params, "protocolVersion").value_or("");
    version_ = protocol::is_legacy_version(requested) ? requested : std::string(protocol::legacy_versions.front());
    const Json* capabilities = protocol::member(params, "capabilities");
    client_capabilities_ = capabilities ? *capabilities : Json::object();
    const Json* info = protocol::member(params, "clientInfo");
    client_info_ = info ? *info : Json::object();
    Json server_info = {{"name", "mcp-edit"}, {"version", MCP_EDIT_VERSION}};
    if (protocol::has_structured_output(version_)) server_info["title"] = "mcp-edit: safe file editing";
    base::log::info("initialize: client {} {} asked {}, speaking {}",
                    protocol::string_member(client_info_, "name").value_or("?"),
                    protocol::string_member(client_info_, "version").value_or("?"), requested, version_);
    return {{"protocolVersion", version_},
            {"capabilities", server_capabilities(protocol::Era::legacy)},
            {"serverInfo", server_info},
            {"instructions", instructions(config_)}};
}

void Session::forward_log(base::log::Level level, const std::string& logger, const std::string& text) {
    if (era_ != protocol::Era::legacy || !initialized_ || !client_log_level_ || level < *client_log_level_) return;
    peer_->notify("notifications/message", {{"level", mcp_level_name(level)}, {"logger", logger}, {"data", text}});
}

}  // namespace server
