// One change of one or more files, as every mutating tool makes it: the files' lanes held, each
// file as loaded and what it becomes. The transaction carries out the whole sequence: present
// (or stop there for a dry run), approve (one request for all), re-check and commit (all or
// nothing; one file changed on disk meanwhile is merged and asked again), check, record. Tools
// plan (fill in the changes and what the form shows) and write the report; nothing else.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "os/file_status.hpp"
#include "os/locks.hpp"
#include "checks/check_report.hpp"
#include "text/bytes/spliced_bytes.hpp"
#include "text/diff/unified_diff.hpp"
#include "tools/pipeline/file_access.hpp"
#include "tools/pipeline/shown_diff.hpp"
#include "tools/tool.hpp"

namespace tools {

// The file as a planner sees it: present (bytes and facts) or absent (a new file).
struct FileSnapshot {
    bool exists = false;
    LoadedFile file;  // valid when exists; file.path is always set
};

// What a file becomes: whole bytes, or the bytes it was loaded with, one span replaced (an edit:
// a big file is then held once, not twice). Read with those bytes: parts(old) for the write, the
// hashes and the ledger; joined(old) only where one string is needed (a merge, --check, the journal).
class NewBytes {
public:
    NewBytes() = default;
    NewBytes(std::string whole) : whole_(std::move(whole)) {}
    NewBytes(const char* whole) : whole_(whole) {}
    explicit NewBytes(text::SplicedBytes spliced) : spliced_(std::move(spliced)) {}

    const text::SplicedBytes* spliced() const { return spliced_ ? &*spliced_ : nullptr; }
    text::ByteParts parts(std::string_view old) const {
        return spliced_ ? spliced_->over(old) : text::ByteParts(whole_);
    }
    std::size_t size(std::string_view old) const { return spliced_ ? spliced_->size_over(old) : whole_.size(); }
    bool same_as(std::string_view old) const { return spliced_ ? spliced_->changes_nothing(old) : whole_ == old; }
    // The diff from `old` to these bytes (an edit's: from the lines around its span only).
    text::UnifiedDiff diff_from(std::string_view old, const text::DiffOptions& options) const {
        return spliced_ ? text::unified_diff(old, *spliced_, options) : text::unified_diff(old, whole_, options);
    }
    // The bytes in one string: the whole bytes themselves, or the parts joined into `scratch`.
    const std::string& joined(std::string_view old, std::string& scratch) const {
        if (!spliced_) return whole_;
        scratch = spliced_->over(old).joined();
        return scratch;
    }

    // The bytes in one string, taken out of this.
    std::string take_joined(std::string_view old) && {
        return spliced_ ? spliced_->over(old).joined() : std::move(whole_);
    }

private:
    std::string whole_;
    std::optional<text::SplicedBytes> spliced_;
};

// One file of a transaction: as it was, and what it becomes.
struct FileChange {
    FileSnapshot before;
    NewBytes new_bytes;  // ignored when delete_file
    bool delete_file = false;
    // Written over the file itself, so that every name sees it, even without
    // --write-through-hard-links: apply_diff sets it when its patch names every name of the file.
    bool write_through = false;
    // The written file takes this file's mode and owner instead of its own or the defaults: a move's
    // destination takes its source's (also over an existing file), undo of a deletion the deleted file's.
    std::optional<os::FileStat> like = std::nullopt;
    // Recorded in the history with the change: a move's other file (see History::Entry::partner).
    std::string partner = {};

    text::ByteParts new_parts() const { return new_bytes.parts(before.file.bytes); }
};

// Why a commit failed: the first failure (its message for the model, its reason: conflict when a
// file changed meanwhile, else io_error), and the files that could not be put back ("" when every
// file already written was restored, or none was written).
struct CommitFailure {
    base::Failure failure;
    std::string revert_errors;  // "\n- path: error" per file
    bool some_committed = false;
};

// How a transaction carries out its changes, besides the changes themselves.
struct ChangeSteps {
    ShownDiff shown;
    // Present only: no approval, no write (a dry run, or a change that changes nothing).
    bool dry_run = false;
    // When the only file changed on disk between loading and writing: merge the two changes when
    // they touch different lines (and ask again) instead of failing. Off for undo (exact bytes).
    bool merge_when_stale = false;
    // Recorded in the history (so undo can revert it); undo itself is not.
    bool record_history = true;
    // Refuse the change, before anything is shown or asked (dry runs too), when its new text puts
    // an elision marker ("# ... rest of the code unchanged ...") where it drops lines of a file
    // (text::find_elision): edit, multiedit, write and apply_diff set it; undo and move do not
    // (they restore or carry bytes that were already written).
    bool refuse_elisions = false;
    // Runs on the io thread right after every file is written.
    std::function<void()> after_commit = {};
};

// What a tool's report is made of once the sequence has run (at once for a dry run).
struct CarriedOutChange {
    const ApprovalDecision* decision = nullptr;  // nullptr: a dry run, nothing asked
    std::vector<checks::CheckOutcome> checks;
    // For the result's notes, after the plan's own: a merge with the file on disk, files that
    // had other names (hard links) and were given a file of their own.
    std::vector<std::string> notes;
    // After a merge with the file on disk: the diff of what was written, against the file as it
    // was then (replaces the planned diff in the report).
    std::optional<text::UnifiedDiff> merged;
};

// The tool's result from what was done; runs before the bookkeeping (record) on the io thread.
using Report = std::function<ToolResult(CarriedOutChange)>;

// How many times one call merges with changes on disk before it gives up (each merge is approved
// again): a human is asked at most this often; without a human to ask (approved by policy or for
// the session), a busy file (another server writing it all the time) gets more tries.
inline constexpr int max_stale_merges = 3;
inline constexpr int max_unattended_merges = 64;

class Transaction {
public:
    Transaction(std::string tool, std::vector<ledger::FileLanes::Guard> lanes);

    std::vector<FileChange>& changes() { return changes_; }
    const std::vector<FileChange>& changes() const { return changes_; }

    // The whole sequence (see the top of this file); the answer is `report`'s result, or the
    // refusal, failure or input_required round trip that ended it. Call once, after the changes
    // are filled in.
    asio::awaitable<ToolResult> carry_out(CallContext& ctx, ChangeSteps steps, Report report);

    // Stages every change, re-checks every file (still as loaded, or still absent), then commits
    // them in order; on a failure, discards what is staged and reverts what was committed.
    // Runs where WorkPlacement decides (inline for a lone call over small files); the folders'
    // locks are waited for without blocking (see lock_folders). A call cancelled before the first
    // rename writes nothing and fails with reason cancelled.
    asio::awaitable<base::Result<void, CommitFailure>> commit(CallContext& ctx);

private:
    // The lock of every folder a change writes in, against other mcp-edit processes, taken in
    // sorted order. One held by another process is tried again on a timer, never waited for on
    // the io thread, until it is free, the call is cancelled (reason cancelled) or
    // ctx.settings.limits.folder_lock_wait has passed (reason timeout, naming the holder when it can).
    // Reads of these files still queue behind it: a read sent after a change sees it.
    asio::awaitable<base::Result<std::vector<std::unique_ptr<os::FolderLock>>, base::Failure>> lock_folders(
        CallContext& ctx);

    // The refusal of the first change that writes an elision marker over lines of its file, if any.
    std::optional<base::Failure> elision_refusal() const;

    // The request for the gate over every change (images in the order of changes()).
    ApprovalRequest approval_request(const ShownDiff& shown, std::string asked_again_because) const;

    // Asks the gate; while it waits for a human, reads of these files do not queue behind it.
    // nullopt: approved, go on (or awaiting review, which `decision` says: carry_out reports it);
    // otherwise the result to answer with.
    asio::awaitable<std::optional<ToolResult>> approve(CallContext& ctx, ApprovalRequest ask,
                                                       ApprovalDecision& decision);

    // After a conflict of the only file: the file as it is now becomes its `before`, and its new
    // bytes the three-way merge; the diff of that, for the form and the report.
    base::Result<text::UnifiedDiff> merge_with_disk(const CallContext& ctx, std::vector<std::string>& notes);

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

    // The model's words for a failed commit: the failure, and for several files whether the ones
    // already written were put back.
    base::Failure commit_failure(CommitFailure failed) const;

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
