// What every tool handler sees and returns: the call's context (workspace, session file states,
// limits, where blocking work runs, cancellation, progress) and a result the session turns into
// a CallToolResult. Kept apart from the registry so tools do not depend on dispatch.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/co_spawn.hpp>
#include <asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include "tools/result_view.hpp"
#include "tools/tool_kind.hpp"
#include "os/ignore_files.hpp"
#include "os/workspace.hpp"
#include "base/error_reason.hpp"
#include "ledger/file_lanes.hpp"
#include "ledger/file_states.hpp"
#include "tools/pipeline/approval.hpp"
#include "ledger/history.hpp"
#include "ledger/session_changes.hpp"

namespace checks {
class Checks;  // checks/checks.hpp
}  // namespace checks
namespace ledger {
class HistoryJournal;  // ledger/history_journal.hpp
}  // namespace ledger

namespace tools {

using Json = nlohmann::json;

// Reports a call's progress to the client (progress, total, message), when it gave a progressToken.
using ProgressReport = std::function<void(double progress, double total, std::string message)>;

struct Limits {
    std::uint64_t max_file_size = 256ull << 20;
    std::size_t max_result_text = 1u << 20;  // bytes of text a result may carry
    // How long a write waits for another process's lock of its folder (a server holds it for
    // milliseconds; longer means it is stuck, or the lock is held on purpose).
    std::chrono::milliseconds folder_lock_wait{30000};
};

// What the workbench is configured with (the server's command line, as far as tools need it).
struct WorkbenchSettings {
    Limits limits;
    bool fsync = true;
    // A file with other names (hard links): false = a write gives it a new file and the other names
    // keep the old content (they may lie outside the roots or be ignored); true = written through
    // every name (--write-through-hard-links).
    bool write_through_hard_links = false;
    double fuzzy_threshold = 1.0;            // apply_diff similarity matching; 1 = off (--fuzzy-threshold)
    os::IgnoreSettings ignore;               // --ignore-file, --respect-gitignore, --ignore-reads
    std::size_t history_budget = 64u << 20;  // --history-budget: bytes the history, and the session's bases, each keep
    std::string history_dir;                 // --history-dir ("" = memory only)
};

struct ToolResult {
    bool is_error = false;
    std::string text;                 // content[0]
    Json structured;                  // structuredContent (null when none; never on errors)
    std::string extra_text;           // content[1] when non-empty
    std::vector<Json> extra_content;  // after the text items: other content blocks (read's images)
    PendingInput input_required;      // when set: the client must answer first (2026-07-28); the server shapes it
    Json meta;  // entries for the result's _meta (the review view's payload); null: none. Never shown to the model
    base::ErrorReason reason = base::ErrorReason::other;  // is_error: why, for `_meta` (see error_reason.hpp)

    // Bookkeeping after a write that can wait until the reply is out: the history entry, the new
    // content's fingerprint, closing the replaced file (whose last reference frees its blocks).
    // The session awaits it once the reply is written (it runs where WorkPlacement puts it) and
    // destroys it afterwards on its io thread, releasing what it holds: the file's lane among
    // them, so the next change of the same file starts after it.
    std::function<asio::awaitable<void>()> after_reply;

    static ToolResult error(std::string message, base::ErrorReason reason = base::ErrorReason::other) {
        ToolResult r;
        r.is_error = true;
        r.text = std::move(message);
        r.reason = reason;
        return r;
    }
    static ToolResult error(base::Failure failure) { return error(std::move(failure.message), failure.reason); }
};

// What belongs to one request, set by its caller (the session): where it may work, its
// cancellation, progress, approval and what the client shows its model, and the caller's part of
// the way through a call (see Workbench::call). Every member has a working default.
struct CallScope {
    // The call's roots, asked for once the call is known to be well formed (a client's roots may
    // narrow the server's). nullptr: the workbench's.
    std::function<asio::awaitable<std::shared_ptr<const os::Workspace>>()> roots;
    // A refusal that comes before the arguments are checked (a server with no usable root says why
    // on every call). nullptr, or nullopt from it: none.
    std::function<asio::awaitable<std::optional<ToolResult>>()> refusal;
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
    // Reports progress (progress, total, message) when the client gave a progressToken.
    ProgressReport progress = [](double, double, std::string) {};
    // Makes the call's approval gate once its tool, arguments and roots are known (the gate may
    // bind them). nullptr: every write approved by policy.
    std::function<ApprovalGate(const std::string& tool, const Json& arguments, const ProgressReport& progress,
                               std::shared_ptr<const os::Workspace> roots)>
        approval;
    // Reports whether this is the only tool call in flight: short work then runs on the io thread
    // (less latency); with others in flight it goes to the pool (parallel files).
    std::function<bool()> alone = [] { return false; };
    // Bytes of text a result may carry when the client shows its model less than the server's
    // limit (Limits::max_result_text); 0: the server's limit.
    std::size_t max_result_text = 0;
    ResultView result_view{};  // what the client shows its model of a result
    // Decides a review (a tool of kind review_decision) with its checked arguments, in the call's
    // roots. nullptr: such a call is refused.
    std::function<asio::awaitable<ToolResult>(const Json& arguments, std::shared_ptr<const os::Workspace> roots)>
        decide_review;
    // What the caller adds to a finished result before the call's own notes (the session: the
    // review view's payload, what the user decided in the view, what the client's roots changed).
    std::function<void(const std::string& tool, ToolKind kind, ToolResult& outcome)> finish;
};

// What a handler works with: the workbench's settings and the request's scope by reference, the
// call's roots, and the session's ledger the workbench owns (tests may leave parts of it out).
struct CallContext {
    const WorkbenchSettings& settings;
    const CallScope& scope;
    const os::Workspace& workspace;
    ledger::FileStates& file_states;
    ledger::FileLanes& lanes;
    asio::any_io_executor blocking;                     // where file I/O and heavy computation run
    ledger::History* history = nullptr;                 // the session's record of what it wrote (for undo)
    ledger::SessionChanges* session_changes = nullptr;  // the files this session changed and their bases
    ledger::HistoryJournal* journal = nullptr;          // --history-dir: both of those kept on disk too
    checks::Checks* checks = nullptr;                   // post-write checks (--check); nullptr when none are configured
    os::IgnoreFiles* ignore = nullptr;                  // ignore rules (--ignore-file, .git); nullptr: nothing ignored
    // The approval gate every write passes (made by the scope for this call); the default applies by policy.
    ApprovalGate approve = [](const ApprovalRequest&) -> asio::awaitable<ApprovalDecision> {
        ApprovalDecision d;
        d.kind = ApprovalDecision::Kind::approved;
        d.approval = ApprovalSource::policy;
        co_return d;
    };

    // Bytes of text a result may carry: the server's limit, or the client's when it is smaller.
    std::size_t max_result_text() const {
        const std::size_t server = settings.limits.max_result_text;
        return scope.max_result_text ? std::min(server, scope.max_result_text) : server;
    }
};

using Handler = std::function<asio::awaitable<ToolResult>(CallContext&, const Json& args)>;

// Runs `work` (a callable returning T) on the blocking executor and resumes the caller on its
// own executor with the value. Whether work is moved at all is WorkPlacement's decision.
template <class Work>
auto offload(const asio::any_io_executor& blocking, Work work) -> asio::awaitable<decltype(work())> {
    using T = decltype(work());
    if constexpr (std::is_default_constructible_v<T>) {
        co_return co_await asio::co_spawn(
            blocking, [w = std::move(work)]() mutable -> asio::awaitable<T> { co_return w(); }, asio::use_awaitable);
    } else {  // co_spawn hands values over default-constructed: carry this one in an optional
        std::optional<T> out = co_await asio::co_spawn(
            blocking, [w = std::move(work)]() mutable -> asio::awaitable<std::optional<T>> { co_return w(); },
            asio::use_awaitable);
        co_return std::move(*out);
    }
}

}  // namespace tools
