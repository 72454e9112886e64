// What every tool handler sees and returns: the call's context (workspace, session file states,
// limits, where blocking work runs, cancellation, progress) and a result the session turns into
// a CallToolResult. Kept apart from the registry so tools do not depend on dispatch.
#pragma once

#include <atomic>
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

#include "os/workspace.hpp"
#include "base/error_reason.hpp"
#include "tools/file_lanes.hpp"
#include "tools/file_states.hpp"
#include "tools/history.hpp"

namespace tools {

using Json = nlohmann::json;

struct Limits {
    std::uint64_t max_file_size = 256ull << 20;
    std::size_t max_result_text = 1u << 20;  // bytes of text a result may carry
};

// What the human (or the policy) is asked to allow: one change of one or more files.
struct ApprovalRequest {
    std::string tool;
    std::vector<std::string> paths;  // as shown (relative to the root)
    std::size_t additions = 0;
    std::size_t removals = 0;
    std::string diff;                // the whole diff text; the form cuts it to a readable length
    // Each file's bytes before and after (nullptr: absent before / deleted after), valid while
    // the gate runs; an approval that outlives the call (2026-07-28) binds their SHA-256.
    struct Image {
        std::string real_path;
        const std::string* before = nullptr;
        const std::string* after = nullptr;
    };
    std::vector<Image> images;
    // Called by a gate right before it waits for a human (an open form), so that reads of these
    // files stop queueing behind the change (FileLanes::waiting_for_human). Unset: nothing to do.
    std::function<void()> waiting_for_human;
};

struct ApprovalDecision {
    enum class Kind { approved, rejected, input_required } kind = Kind::rejected;
    std::string approval;  // approved: "user", "session" or "policy"
    std::string message;   // rejected: the error for the model; approved: a note ("" when none)
    base::ErrorReason reason = base::ErrorReason::rejected;  // rejected: why (rejected, cancelled, timeout, ...)
    std::string feedback;  // what the human wrote for the agent, if anything
    Json input_required;   // input_required: the InputRequiredResult to answer with
};

using ApprovalGate = std::function<asio::awaitable<ApprovalDecision>(const ApprovalRequest&)>;

struct CallContext {
    const os::Workspace& workspace;
    FileStates& file_states;
    FileLanes& lanes;
    Limits limits;
    asio::any_io_executor blocking;  // where file I/O and heavy computation run
    bool fsync = true;
    // Reports whether this is the only tool call in flight: short work then runs on the io thread
    // (less latency); with others in flight it goes to the pool (parallel files).
    std::function<bool()> alone = [] { return false; };
    History* history = nullptr;  // the session's record of what it wrote (for undo)
    double fuzzy_threshold = 1.0;  // apply_diff similarity matching; 1 = off (--fuzzy-threshold)
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
    // Reports progress (progress, total, message) when the client gave a progressToken.
    std::function<void(double, double, std::string)> progress = [](double, double, std::string) {};
    // The approval gate every write passes; the default applies by policy.
    ApprovalGate approve = [](const ApprovalRequest&) -> asio::awaitable<ApprovalDecision> {
        ApprovalDecision d;
        d.kind = ApprovalDecision::Kind::approved;
        d.approval = "policy";
        co_return d;
    };
};

struct ToolResult {
    bool is_error = false;
    std::string text;       // content[0]
    Json structured;        // structuredContent (null when none; never on errors)
    std::string extra_text; // content[1] when non-empty
    Json input_required;    // when set: answer with this InputRequiredResult instead (2026-07-28)
    base::ErrorReason reason = base::ErrorReason::other;  // is_error: why, for `_meta` (see error_reason.hpp)

    // Bookkeeping after a write that can wait until the reply is out: the history entry, the new
    // content's fingerprint, closing the replaced file (whose last reference frees its blocks).
    // The session runs it once the reply is written (on the blocking pool when `after_reply_heavy`)
    // and destroys it afterwards on its io thread, releasing what it holds: the file's lane among
    // them, so the next change of the same file starts after it.
    std::function<void()> after_reply;
    bool after_reply_heavy = false;

    static ToolResult error(std::string message, base::ErrorReason reason = base::ErrorReason::other) {
        ToolResult r;
        r.is_error = true;
        r.text = std::move(message);
        r.reason = reason;
        return r;
    }
    static ToolResult error(base::Failure failure) { return error(std::move(failure.message), failure.reason); }
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
