// One MCP connection above the JSON-RPC peer: chooses the era from what the client sends first
// (initialize: the legacy eras; per-request _meta: 2026-07-28), then serves each request from that
// era's method table, tools/call in its own coroutine on the Workbench (which holds all tool
// state), and forwards logs the client asked for. It speaks the protocol only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "base/log.hpp"
#include "os/workspace.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"
#include "server/approval_gate.hpp"
#include "server/client_roots.hpp"
#include "server/config.hpp"
#include "server/resources.hpp"
#include "server/rpc_peer.hpp"
#include "server/session_envelope.hpp"
#include "server/tool_call.hpp"
#include "server/transport.hpp"
#include "tools/registry.hpp"
#include "tools/workbench.hpp"

namespace server {

using protocol::Json;

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(asio::io_context& io, asio::any_io_executor blocking, const Config& config, Transport& transport,
            const os::Workspace& workspace, const tools::Registry& registry);

    // What the transport's read loop delivers.
    Transport::Receiver receiver();
    void on_line(std::string line) { peer_->on_line(std::move(line)); }
    void on_oversized(std::size_t bytes) { peer_->on_oversized(bytes); }
    void on_eof() { peer_->end_of_input(); }
    // SIGTERM/SIGINT: stop reading, finish in-flight work, flush, exit.
    void shut_down();

    // Post-write checks (--check) every change of this session runs; they outlive the session.
    void use_checks(checks::Checks* checks) { workbench_.use_checks(checks); }

    // Completes when input has ended and every in-flight request has finished.
    asio::awaitable<void> finished() { return peer_->finished(); }

    // For the MCP log sink: forwards a log record as notifications/message when the client asked
    // for that level (legacy era, after initialization). Call on the io_context's thread.
    void forward_log(base::log::Level level, const std::string& logger, const std::string& text);

    // Every method some era serves (initialize included), from the method tables.
    static const std::vector<std::string_view>& known_methods();

private:
    using Reply = RpcPeer::Reply;
    using Method = void (Session::*)(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    using MethodTable = std::unordered_map<std::string_view, Method>;
    static const MethodTable& legacy_methods();
    static const MethodTable& modern_methods();

    void handle_request(protocol::Request request, Reply reply);
    void handle_notification(const protocol::Notification& note);
    // A request with 2026-07-28's _meta (or server/discover): the version checked, the era
    // chosen, then the modern table.
    void handle_modern(protocol::Request& request, RequestEnvelope& envelope, Reply& reply);
    // Before any era: ping, or a request to initialize first.
    void handle_undecided(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    // Fills in what the connection knows (era, version, a legacy client's capabilities and name).
    void complete(RequestEnvelope& envelope) const;

    void initialize(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void ping(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void discover(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void list_tools(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void call_tool(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void set_log_level(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    // The session's changes as resources (server/resources.hpp); prompts: none.
    void list_resources(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void list_resource_templates(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void read_resource(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void subscribe_resource(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void unsubscribe_resource(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    void list_prompts(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply);
    asio::awaitable<void> read_resource_now(std::shared_ptr<Session> keep_alive, std::string uri, ResourceTarget target,
                                            Reply reply, RequestEnvelope envelope);
    // A change of `real_path` landed (io thread): notifications/resources/updated to subscribers of
    // it or of the session patch, notifications/resources/list_changed when the file is new to the list.
    void on_file_changed(const std::string& real_path, bool new_file);

    asio::awaitable<void> run_tool_call(std::shared_ptr<Session> keep_alive, protocol::Request request,
                                        RequestEnvelope envelope, Reply reply);
    tools::ProgressReport progress_reporter(const RequestEnvelope& envelope);
    // The review view's decision (the app-only tool `review`): Apply runs the pending change's call
    // again with a gate that writes it only if it is still exactly what was shown; Reject drops it.
    asio::awaitable<tools::ToolResult> decide_review(const Json& args, const RequestEnvelope& envelope,
                                                     std::shared_ptr<RpcPeer::Call> rpc_call);
    // What every call's scope holds: its cancellation, progress, approval gate (`confirming`: an
    // Apply from the view) and what the client shows its model.
    tools::CallScope call_scope(const RequestEnvelope& envelope, const std::shared_ptr<RpcPeer::Call>& rpc_call,
                                const PendingReview* confirming = nullptr, ApprovalAnswer answer = {});
    // A tools/call's scope: call_scope, and the session's part of the way through the call (the
    // refusal of a server without roots, the client's roots, review decisions, the view's payload
    // and the notes said once).
    tools::CallScope tool_call_scope(const RequestEnvelope& envelope, std::shared_ptr<RpcPeer::Call> rpc_call);

    Json initialize_result(const Json& params);

    asio::io_context& io_;
    asio::any_io_executor blocking_;
    const Config& config_;
    const os::Workspace& workspace_;  // the server's roots: how resources name files
    Transport& transport_;
    const tools::Registry& registry_;
    std::shared_ptr<RpcPeer> peer_;
    tools::Workbench workbench_;                     // the ledger, checks, ignore rules and limits every tool call uses
    std::unordered_set<std::string> subscriptions_;  // legacy resources/subscribe: URIs
    bool resources_seen_ = false;  // the client listed, read or subscribed to resources: list_changed is for it
    Approvals approvals_;
    ClientRoots roots_;

    protocol::Era era_ = protocol::Era::undecided;
    std::string version_;       // negotiated (legacy) or per-request (modern)
    bool initialized_ = false;  // legacy: notifications/initialized received
    Json client_capabilities_ = Json::object();
    Json client_info_ = Json::object();
    std::optional<base::log::Level> client_log_level_;
    std::size_t tool_calls_ = 0;  // tools/call coroutines running
};

}  // namespace server
