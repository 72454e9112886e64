// One MCP connection: decides the era from what the client sends first, runs the lifecycle,
// dispatches each request in its own coroutine, answers each exactly once (or never, when
// cancelled), and finishes in-flight work before it lets the process exit.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/common.h>

#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"
#include "server/approval_form.hpp"
#include "server/config.hpp"
#include "server/diff_spool.hpp"
#include "server/request_state.hpp"
#include "server/stdio_transport.hpp"
#include "os/workspace.hpp"
#include "tools/file_lanes.hpp"
#include "tools/file_states.hpp"
#include "tools/history.hpp"
#include "tools/registry.hpp"

namespace server {

using protocol::Json;

class Session : public std::enable_shared_from_this<Session> {
public:
    Session(asio::io_context& io, asio::any_io_executor blocking, const Config& config,
            StdioTransport& transport, const os::Workspace& workspace, const tools::Registry& registry);

    void on_line(std::string line);
    void on_oversized(std::size_t bytes);
    void on_eof();
    // SIGTERM/SIGINT: stop reading, finish in-flight work, flush, exit.
    void shut_down();

    // Completes when input has ended and every in-flight request has finished.
    asio::awaitable<void> finished();

    // For the MCP log sink: forwards a log record as notifications/message when the client asked
    // for that level (legacy era, after initialization). Call on the io_context's thread.
    void forward_log(spdlog::level::level_enum level, const std::string& logger, const std::string& text);

private:
    struct InFlight;
    struct Batch;
    class Reply;
    struct Outgoing;
    struct ClientAnswer {
        std::optional<Json> response;  // the whole response message (result or error)
        bool cancelled = false;        // the call it served was cancelled
        bool timed_out = false;
        bool refused = false;          // too many requests outstanding
    };

    void dispatch(Json value, const std::shared_ptr<Batch>& batch);
    void handle_request(protocol::Request request, Reply reply);
    void handle_notification(const protocol::Notification& note);
    asio::awaitable<void> call_tool(protocol::Request request, Reply reply, std::shared_ptr<InFlight> state);

    // A server-to-client request (legacy era only), answered, timed out, or abandoned when the
    // call it serves is cancelled. `tick` runs every few seconds while waiting.
    asio::awaitable<ClientAnswer> ask_client(std::string method, Json params,
                                             std::chrono::steady_clock::time_point deadline,
                                             std::shared_ptr<InFlight> call, std::function<void()> tick);
    void handle_response(const protocol::Response& response);

    // The approval gate of one tools/call, for this session's era and policy. It refers to `args`
    // and `params`, which must outlive it (the call's own).
    tools::ApprovalGate make_gate(const std::string& tool, const Json& args, const Json& params,
                                  std::shared_ptr<InFlight> call, std::function<void(double, double, std::string)> progress);
    bool client_can_elicit(const Json& capabilities) const;
    // The human's answer as a decision; "Apply and stop asking" is remembered for the session.
    tools::ApprovalDecision decide(const ApprovalAnswer& answer, const std::string& what);
    // The workspace of a call: --root, narrowed by the client's roots when it declared them (or,
    // started without --root, the client's roots). One roots/list at a time: calls that come
    // while it is out wait for its answer.
    asio::awaitable<std::shared_ptr<const os::Workspace>> call_workspace(std::shared_ptr<InFlight> call);
    asio::awaitable<std::shared_ptr<const os::Workspace>> fetch_client_roots(std::shared_ptr<InFlight> call);
    asio::awaitable<void> wait_for_client_roots(std::shared_ptr<InFlight> call);

    Json initialize(const Json& params);
    Json discover_result() const;
    // What initialize and server/discover tell the client: how to use the tools, led by what is
    // wrong with the server's configuration when something is.
    std::string instructions() const;
    Json server_capabilities() const;
    Json tools_list_result(const Json& capabilities) const;
    void send(const Json& message);
    void request_finished();

    asio::io_context& io_;
    asio::any_io_executor blocking_;
    const Config& config_;
    StdioTransport& transport_;
    const os::Workspace& workspace_;
    const tools::Registry& registry_;
    tools::FileStates file_states_;
    tools::FileLanes lanes_;
    tools::History history_;
    RequestStateSigner signer_;
    DiffSpool diff_spool_;  // full diffs of large changes, named in their approval forms
    bool approved_for_session_ = false;  // "Apply and stop asking this session"

    std::unordered_map<std::string, std::shared_ptr<Outgoing>> outgoing_;
    std::int64_t next_outgoing_id_ = 1;

    std::shared_ptr<const os::Workspace> client_workspace_;  // what the client's roots make of --root
    bool roots_stale_ = true;
    bool roots_fetching_ = false;          // a roots/list is out; other calls wait for its answer
    std::uint64_t roots_generation_ = 0;   // counts notifications/roots/list_changed
    asio::steady_timer roots_fetched_;     // cancelled when the roots/list out ends, waking the waiting calls
    std::string roots_note_;               // for the next result: the client's roots were set aside
    std::string last_roots_note_;          // said once; not again while it stays the same

    protocol::Era era_ = protocol::Era::undecided;
    std::string version_;            // negotiated (legacy) or per-request (modern)
    bool initialized_ = false;       // legacy: notifications/initialized received
    Json client_capabilities_ = Json::object();
    Json client_info_ = Json::object();
    std::optional<spdlog::level::level_enum> client_log_level_;

    std::unordered_map<std::string, std::shared_ptr<InFlight>> in_flight_;
    std::size_t active_ = 0;  // requests being served, including batch members
    std::size_t tool_calls_ = 0;  // tools/call coroutines running
    bool input_ended_ = false;
    asio::steady_timer idle_signal_;
};

}  // namespace server
