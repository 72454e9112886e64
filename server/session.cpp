// Session: the era chosen by the first request, one method table per era, each request's envelope
// read once, tools/call run on the workbench in its own coroutine (workspace, approval gate,
// progress as its scope; bookkeeping after the reply).
#include "server/session.hpp"

#include <algorithm>
#include <utility>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"
#include "server/logging.hpp"
#include "server/server_description.hpp"
#include "tools/handlers/review.hpp"

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

// What the review view shows of the `changes` result: the session's patch, with Undo per file.
Json session_patch_view(const Json& changes) {
    std::size_t additions = 0, removals = 0;
    Json undo = Json::array();
    for (const auto& file : changes.value("files", Json::array())) {
        additions += file.value("additions", std::size_t{0});
        removals += file.value("removals", std::size_t{0});
        if (const Json* path = protocol::member(file, "file_path"); path && path->is_string()) undo.push_back(*path);
    }
    return review_payload("patch", "changes", "This session's changes", additions, removals, changes.value("patch", ""),
                          changes.value("patch_truncated", false), std::move(undo));
}

// What the review view shows of a dry run: the diff, nothing to decide.
Json dry_run_view(const std::string& tool, const Json& report) {
    std::string diff = report.value("diff", "");
    for (const auto& file : report.value("files", Json::array())) diff += file.value("diff", "");
    return review_payload("dry_run", tool, tool + " (dry run)", report.value("additions", std::size_t{0}),
                          report.value("removals", std::size_t{0}), diff, report.value("diff_truncated", false));
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

void Session::call_tool(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply) {
    asio::co_spawn(io_, run_tool_call(shared_from_this(), std::move(request), envelope, std::move(reply)),
                   asio::detached);
}

// `keep_alive` holds the session (and what the gate and roots refer to) until the call ends.
asio::awaitable<void> Session::run_tool_call([[maybe_unused]] std::shared_ptr<Session> keep_alive,
                                             protocol::Request request, RequestEnvelope envelope, Reply reply) {
    auto resolved = resolve_tool_call(registry_, request.params);
    if (!resolved) {
        reply.error(protocol::invalid_params, resolved.error());
        co_return;
    }
    ToolCall& call = *resolved;
    const tools::ToolKind kind = tools::Registry::spec(*call.tool).traits.kind;
    const std::shared_ptr<RpcPeer::Call> rpc_call = reply.call();

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
    const bool client_has_roots = envelope.era == protocol::Era::legacy && envelope.capabilities.contains("roots");
    tools::ToolResult outcome;
    // A server without a usable root says why on every call (without --root, the client's roots
    // may still supply a workspace; client roots never widen a --root that was given).
    std::shared_ptr<const os::Workspace> workspace;
    bool misconfigured = !config_.misconfiguration.empty();
    if (misconfigured && !config_.roots_given) {
        workspace = co_await roots_.for_call(client_has_roots, rpc_call);
        misconfigured = workspace->roots().empty();
    }
    if (misconfigured) {
        outcome = tools::ToolResult::error(config_.misconfiguration, base::ErrorReason::no_root);
    } else if (auto wrong = workbench_.check(call)) {
        outcome = std::move(*wrong);
        // The view reads every refusal of a decision as "not written" (ui/README.md): say so.
        if (kind == tools::ToolKind::review_decision) outcome.text += "\nNothing was written.";
    } else {
        if (!workspace) workspace = co_await roots_.for_call(client_has_roots, rpc_call);
        if (kind == tools::ToolKind::review_decision) {
            outcome = co_await decide_review(call.args, envelope, rpc_call);
        } else {
            // Named first: GCC 12 destroys a temporary argument of a coroutine inside co_await twice.
            tools::CallScope scope = call_scope(envelope, rpc_call, workspace);
            outcome = co_await workbench_.run(call, std::move(scope));
        }
        if (!outcome.is_error && outcome.meta.is_null() && outcome.structured.is_object() &&
            client_renders_view(envelope.capabilities)) {
            if (kind == tools::ToolKind::session_patch)
                outcome.meta = {{tools::review_meta_key, session_patch_view(outcome.structured)}};
            else if (outcome.structured.value("dry_run", false))
                outcome.meta = {{tools::review_meta_key, dry_run_view(call.name, outcome.structured)}};
        }
    }
    // What the user decided in the review view since the model's last call, said once.
    if (kind != tools::ToolKind::review_decision && !outcome.input_required)
        for (const auto& note : approvals_.take_review_notes()) add_note(outcome, note);

    // Said once, to the first call the client's roots affect; then what this call's arguments lost.
    if (workspace && !outcome.input_required) add_note(outcome, roots_.take_note());
    add_call_notes(outcome, call);
    const protocol::Era era = envelope.era;
    const OversizedFacts oversized = oversized_facts(call, outcome);
    reply.result(call_tool_result(outcome, era), [&oversized, era](std::size_t bytes) {
        return oversized_result(oversized, bytes, RpcPeer::max_reply_bytes, era);
    });
    if (outcome.input_required) co_return;

    leave.now();  // a call that comes in meanwhile is alone (see CallScope::alone)
    if (outcome.after_reply) {
        // Let the writer put the reply out first (it was woken before this resumes), then the
        // bookkeeping the reply did not need; what it holds (the lane) is released here, on the
        // io thread.
        co_await asio::post(io_, asio::use_awaitable);
        try {
            co_await outcome.after_reply();
        } catch (const std::exception& e) {
            base::log::error("{}: bookkeeping after the write failed: {}", call.name, e.what());
        }
        outcome.after_reply = nullptr;
    }
}

tools::CallScope Session::call_scope(const RequestEnvelope& envelope, const std::shared_ptr<RpcPeer::Call>& rpc_call,
                                     std::shared_ptr<const os::Workspace> workspace, const PendingReview* confirming,
                                     ApprovalAnswer answer) {
    tools::CallScope scope;
    scope.workspace = workspace;
    scope.cancelled = rpc_call->cancelled;
    scope.progress = progress_reporter(envelope);
    scope.alone = [this] { return tool_calls_ == 1; };
    scope.max_result_text = envelope.quirks.result_text_budget;
    scope.result_view = envelope.quirks.result_view;
    scope.approval = [this, &envelope, rpc_call, workspace = std::move(workspace), confirming,
                      answer = std::move(answer)](const tools::PreparedCall& prepared,
                                                  const tools::ProgressReport& progress) {
        Approvals::Call c;
        c.tool = prepared.name;
        c.args = &prepared.args;
        c.envelope = &envelope;
        c.call = rpc_call;
        c.progress = progress;
        c.workspace = workspace;
        c.confirming = confirming;
        c.answer = answer;
        return approvals_.gate(std::move(c));
    };
    return scope;
}

asio::awaitable<tools::ToolResult> Session::decide_review(const Json& args, const RequestEnvelope& envelope,
                                                          std::shared_ptr<RpcPeer::Call> rpc_call) {
    const auto asked = args.get<tools::ReviewArgs>();
    auto taken = approvals_.take_review(asked.review, asked.token);
    if (!taken) co_return tools::ToolResult::error(std::move(taken).error());
    const PendingReview review = std::move(taken).value();
    const auto decided = [](const char* outcome, std::string summary) {
        tools::ToolResult result;
        result.text = summary;
        result.structured = {{"outcome", outcome}, {"summary", std::move(summary)}};
        return result;
    };
    if (asked.decision == "reject") {
        std::string said =
            "In the review view the user rejected " + review.title + " (" + review.id + "); nothing was written.";
        if (!asked.feedback.empty()) said += " Their feedback: " + asked.feedback;
        approvals_.note_review(said);
        co_return decided("rejected", said);
    }
    // Apply: the same call again, planned on the files as they are now; its gate writes it only if
    // that is exactly the change shown, else shows the new one.
    auto prepared = workbench_.prepare(review.tool, review.args);
    if (!prepared) co_return tools::ToolResult::error(std::move(prepared).error(), base::ErrorReason::internal);
    if (auto wrong = workbench_.check(*prepared)) co_return std::move(*wrong);
    ApprovalAnswer answer;
    answer.kind = asked.decision == "apply_session" ? ApprovalAnswer::Kind::apply_session : ApprovalAnswer::Kind::apply;
    answer.feedback = asked.feedback;
    tools::CallScope scope =
        call_scope(envelope, rpc_call, review.workspace, &review, std::move(answer));  // named: see run_tool_call
    tools::ToolResult outcome = co_await workbench_.run(*prepared, std::move(scope));
    if (outcome.is_error) {
        approvals_.note_review("In the review view the user applied " + review.title + " (" + review.id +
                               "), but it was not written: " + outcome.text);
        co_return outcome;
    }
    const Json* approval = protocol::member(outcome.structured, "approval");
    const bool shown_again = approval && approval->is_string() && approval->get<std::string>() == "pending";
    const Json* summary = protocol::member(outcome.structured, "summary");
    std::string said = summary && summary->is_string() ? summary->get<std::string>() : outcome.text;
    if (!shown_again) approvals_.note_review("In the review view the user applied " + review.id + ": " + said);
    tools::ToolResult result = decided(shown_again ? "shown_again" : "applied", std::move(said));
    result.text = std::move(outcome.text);  // the summary and the diff
    result.meta = std::move(outcome.meta);
    result.after_reply = std::move(outcome.after_reply);
    co_return result;
}

// Reports progress as notifications/progress when the client gave a progressToken; else nullptr.
tools::ProgressReport Session::progress_reporter(const RequestEnvelope& envelope) {
    if (!envelope.progress_token) return nullptr;
    std::weak_ptr<Session> weak = weak_from_this();
    return [this, weak, token = *envelope.progress_token, last = std::make_shared<double>(-1)](
               double progress, double total, std::string text) {
        asio::post(io_, [weak, token, last, progress, total, text = std::move(text)] {
            auto self = weak.lock();
            if (!self || progress <= *last) return;
            *last = progress;
            Json p = {{"progressToken", token}, {"progress", progress}};
            if (total > 0) p["total"] = total;
            if (!text.empty()) p["message"] = text;
            self->peer_->notify("notifications/progress", std::move(p));
        });
    };
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
