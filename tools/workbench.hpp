// The protocol-free core under a session: owns the ledger, checks, ignore rules, limits and
// executors, and runs a tool call (looked up, validated, given its CallContext) in a CallScope.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>

#include "base/result.hpp"
#include "ledger/file_lanes.hpp"
#include "ledger/file_states.hpp"
#include "ledger/history.hpp"
#include "ledger/history_journal.hpp"
#include "ledger/session_changes.hpp"
#include "os/ignore_files.hpp"
#include "os/workspace.hpp"
#include "tools/pipeline/call_shapes.hpp"
#include "tools/registry.hpp"
#include "tools/tool.hpp"

namespace tools {

// What the workbench is configured with (the server's command line, as far as tools need it).
struct WorkbenchSettings {
    Limits limits;
    bool fsync = true;
    bool write_through_hard_links = false;   // --write-through-hard-links
    double fuzzy_threshold = 1.0;            // --fuzzy-threshold
    os::IgnoreSettings ignore;               // --ignore-file, --respect-gitignore, --ignore-reads
    std::size_t history_budget = 64u << 20;  // --history-budget: bytes the history, and the session's bases, each keep
    std::string history_dir;                 // --history-dir ("" = memory only)
};

// A call's tool and arguments once resolved: another agent's call shape mapped to one of our
// tools (its notes kept for the result), aliases renamed; after check_arguments, the arguments
// the tool does not take set aside and the rest validated.
struct PreparedCall {
    std::string name;  // the tool that serves it (after mapping another agent's shape)
    const ToolDefinition* tool = nullptr;
    Json args = Json::object();
    CallShape shape;
    std::optional<base::Failure> unmappable;  // a shape that cannot be mapped: the call fails with it
    UnknownArguments unknown;
    bool checked = false;  // check_arguments found nothing wrong
};

// The tool `name` with `args`, or (no such tool) the message naming the tools there are.
base::Result<PreparedCall, std::string> prepare_call(const Registry& registry, std::string name, Json args);
// The error result when the arguments are wrong (a shape that cannot be mapped, too many unknown
// arguments, the schema); unknown arguments within reason are set aside.
std::optional<ToolResult> check_arguments(const Registry& registry, PreparedCall& call);

// Adds a note for the model to a result: to its text, after a blank line, and to structured
// `notes` when it has that array (read's facts have none: text only). Not to input_required.
void add_note(ToolResult& outcome, const std::string& note);
// The notes of the call itself: what mapping its shape and setting arguments aside did.
void add_call_notes(ToolResult& outcome, const PreparedCall& call);

// What belongs to one request: where it may work, its cancellation, progress, approval and
// placement. Unset members leave the CallContext's defaults.
struct CallScope {
    // The roots of this call (a client's roots may narrow the server's); nullptr: the workbench's.
    std::shared_ptr<const os::Workspace> workspace;
    std::shared_ptr<std::atomic<bool>> cancelled;
    // Reports progress (progress, total, message); nullptr: nobody listens.
    ProgressReport progress;
    // Makes the call's approval gate once its tool and arguments are known (the gate may bind
    // them); it is given the progress reporter the call uses. nullptr: every write approved by policy.
    std::function<ApprovalGate(const PreparedCall&, const ProgressReport& progress)> approval;
    // Whether this is the only call in flight (see WorkPlacement); nullptr: never alone.
    std::function<bool()> alone;
    // Bytes of text a result may carry when the client shows its model less than the server's
    // limit (Limits::max_result_text); 0: the server's limit.
    std::size_t max_result_text = 0;
    ResultView result_view{};  // what the client shows its model (see ResultView)
};

class Workbench {
public:
    // `workspace` is the server's roots (the journal's scope and the default of every call);
    // `io` is where lanes hand over and calls resume; `blocking` where file work runs.
    Workbench(asio::any_io_executor io, asio::any_io_executor blocking, const Registry& registry,
              const os::Workspace& workspace, WorkbenchSettings settings);
    Workbench(const Workbench&) = delete;
    Workbench& operator=(const Workbench&) = delete;
    ~Workbench();

    // Post-write checks (--check, --lsp) every change runs; they outlive the workbench. nullptr: none.
    void use_checks(checks::Checks* checks) { checks_ = checks; }

    const Registry& registry() const { return registry_; }

    // Looks the tool up, validates, runs it in `scope`; its notes added. An unknown tool is an
    // error result (reason invalid_arguments) naming the tools there are. The result's
    // after_reply, when set, is the caller's to await (and then destroy: it holds the lane).
    asio::awaitable<ToolResult> call(std::string name, Json arguments, CallScope scope);

    // The two halves of call for a caller that answers an unknown tool otherwise (the session:
    // with a JSON-RPC error) or adds notes of its own before the call's.
    base::Result<PreparedCall, std::string> prepare(std::string name, Json arguments) const;
    // check_arguments, for a caller that answers a wrong call before it sets up the scope.
    std::optional<ToolResult> check(PreparedCall& prepared) const { return check_arguments(registry_, prepared); }
    // Validates `prepared` (unless check passed it) and runs it; no notes added. Never throws: a handler's exception is
    // an internal error result saying the file was not changed.
    asio::awaitable<ToolResult> run(PreparedCall& prepared, CallScope scope);

    // What resources show: the files this session changed, in the order first changed.
    std::vector<ledger::SessionChanges::File> changed_files() const { return session_changes_.files(); }
    // The same, once the bookkeeping of every change of `real_path` (of every file when empty)
    // still running has finished: a resource read then sees each change whole.
    asio::awaitable<std::vector<ledger::SessionChanges::File>> settled_changes(std::string real_path);
    // Hears of every change of a file this session makes (on the thread that made it).
    void on_file_changed(ledger::SessionChanges::Listener listener) {
        session_changes_.set_listener(std::move(listener));
    }

    // The ledger itself, for tests and diagnostics.
    const ledger::History& history() const { return history_; }
    const ledger::FileStates& file_states() const { return file_states_; }

private:
    CallContext context(const os::Workspace& workspace);

    asio::any_io_executor blocking_;
    const Registry& registry_;
    const os::Workspace& workspace_;
    WorkbenchSettings settings_;
    ledger::FileStates file_states_;
    ledger::FileLanes lanes_;
    ledger::History history_;
    ledger::SessionChanges session_changes_;
    os::IgnoreFiles ignore_;
    std::unique_ptr<ledger::HistoryJournal> journal_;  // --history-dir
    checks::Checks* checks_ = nullptr;
};

}  // namespace tools
