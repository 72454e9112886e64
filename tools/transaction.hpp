// One change of one or more files, as every mutating tool makes it: the files' lanes held, each
// file as loaded and what it becomes; then approve (one request for all), re-check and commit
// (all or nothing), and record (file states, history) once the reply is out. A single edit is a
// list of one; apply_diff's patch is a list of many. Tools plan; this carries the plan out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "os/platform.hpp"
#include "checks/check_report.hpp"
#include "tools/file_access.hpp"
#include "tools/tool.hpp"

namespace tools {

// The file as a planner sees it: present (bytes and facts) or absent (a new file).
struct FileSnapshot {
    bool exists = false;
    LoadedFile file;  // valid when exists; file.path is always set
};

// One file of a transaction: as it was, and what it becomes.
struct FileChange {
    FileSnapshot before;
    std::string new_bytes;     // ignored when delete_file
    bool delete_file = false;
    // Written over the file itself, so that every name sees it, even without
    // --write-through-hard-links: apply_diff sets it when its patch names every name of the file.
    bool write_through = false;
    // A new file (before absent) takes this file's mode and owner instead of the defaults: a move's
    // destination takes its source's, undo of a deletion the deleted file's.
    std::optional<platform::FileStat> like = std::nullopt;
    // Recorded in the history with the change: a move's other file (see History::Entry::partner).
    std::string partner = {};
};

// Why a commit failed: the first failure (its message for the model, its reason: conflict when a
// file changed meanwhile, else io_error), and the files that could not be put back ("" when every
// file already written was restored, or none was written).
struct CommitFailure {
    base::Failure failure;
    std::string revert_errors;  // "\n- path: error" per file
    bool some_committed = false;
};

class Transaction {
public:
    Transaction(std::string tool, std::vector<ledger::FileLanes::Guard> lanes);

    std::vector<FileChange>& changes() { return changes_; }
    const std::vector<FileChange>& changes() const { return changes_; }

    // The request for the gate over every change (images in the order of changes()); the caller
    // fills in paths and the diff. Valid while the transaction lives.
    ApprovalRequest approval_request() const;

    // Asks the gate; while it waits for a human, reads of these files do not queue behind it.
    // nullopt: approved, go on; otherwise the result to answer with.
    asio::awaitable<std::optional<ToolResult>> approve(CallContext& ctx, ApprovalRequest ask, ApprovalDecision& decision);

    // Stages every change, re-checks every file (still as loaded, or still absent), then commits
    // them in order; on a failure, discards what is staged and reverts what was committed.
    // Runs where WorkPlacement decides (inline for a lone call over small files).
    asio::awaitable<base::Result<void, CommitFailure>> commit(CallContext& ctx);

    // After a commit: one sentence per file that had other names (hard links) and was given a file
    // of its own, for the result's notes; none with --write-through-hard-links.
    std::vector<std::string> hard_link_notes(const CallContext& ctx) const;

    // After a commit: runs the post-write checks (--check) on every file written (not the deleted
    // ones) and waits for them; none when no check is configured or no glob matches. Reads of the
    // files go on meanwhile (they see the committed bytes); changes of them wait for the checks.
    asio::awaitable<std::vector<checks::CheckOutcome>> check(CallContext& ctx) const;

    // Records the change: the journal (--history-dir) at once, before the reply; then hands the
    // rest of the bookkeeping to `result.after_reply` (new fingerprints, history unless
    // `record_history` is false, the replaced files closed) with the lanes, so the next change of
    // these files starts after it. Deleted files are forgotten at once.
    asio::awaitable<void> record(CallContext& ctx, ToolResult& result, bool record_history);

private:
    std::string tool_;
    std::vector<ledger::FileLanes::Guard> lanes_;
    std::vector<FileChange> changes_;
};

// What the gate's decision means for the call: nullopt = go on and write; otherwise the result to
// answer with (the input_required round trip, a refusal, or a cancellation).
std::optional<ToolResult> unless_approved(const CallContext& ctx, const ApprovalDecision& decision);

// The answer to a call the client cancelled before anything was written; nullopt when it did not.
std::optional<ToolResult> if_cancelled(const CallContext& ctx);

}  // namespace tools
