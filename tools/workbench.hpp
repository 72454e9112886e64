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

// What came of a call: the result, and which tool served it (after mapping another agent's call
// shape). `invalid_params` is set instead when the call named no tool of ours, or its arguments
// are not an object: the caller answers that at the protocol level (the result is an error too).
struct CallOutcome {
    ToolResult result;
    std::string tool;
    ToolKind kind = ToolKind::read_listing;
    std::optional<std::string> invalid_params;
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

    // The one way in: looks the tool up (an unknown tool, or arguments that are not an object, is
    // `invalid_params`), asks the scope for a refusal (a server without roots), checks the
    // arguments (other agents' shapes mapped, unknown ones set aside, the schema), asks the scope
    // for the call's roots, and runs the tool, or the scope's decide_review for a review decision.
    // Then the scope's finish and the call's own notes (what mapping its shape and setting
    // arguments aside did). Never throws: a handler's exception is an internal error result saying
    // the file was not changed. The result's after_reply, when set, is the caller's to await (and
    // then destroy: it holds the lane).
    asio::awaitable<CallOutcome> call(std::string name, Json arguments, CallScope scope);

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
    // Runs the checked `prepared` in `scope`, in `roots` (nullptr: the workbench's).
    asio::awaitable<ToolResult> run(PreparedCall& prepared, const CallScope& scope,
                                    std::shared_ptr<const os::Workspace> roots);

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
