// Transaction: present -> approve -> stage every file -> re-check every file (merge and ask
// again) -> commit (reverting on a failure) -> check -> record after the reply.
#include "tools/pipeline/transaction.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string_view>

#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"
#include "text/diff/elision.hpp"
#include "text/diff/stale_merge.hpp"
#include "checks/checks.hpp"
#include "ledger/history_journal.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/pipeline/staged_writes.hpp"
#include "tools/pipeline/transaction_messages.hpp"
#include "os/paths.hpp"
#include "os/file_reads.hpp"
#include "os/file_writes.hpp"

namespace tools {

namespace {

// The folders of `changes`, sorted (two multi-file changes in two processes lock them in the same
// order: no deadlock), each once.
std::vector<std::string> folders_of(const std::vector<FileChange>& changes) {
    std::vector<std::string> folders;
    for (const auto& change : changes) folders.push_back(os::parent_of(change.before.file.path.real));
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    return folders;
}

// Between two tries at a folder's lock: short at first (a server holds it for milliseconds), then
// at most this long, so a cancellation is seen within it.
constexpr std::chrono::microseconds first_lock_pause{200};
constexpr std::chrono::microseconds longest_lock_pause{10000};
// After this long a wait is logged once, naming the holder.
constexpr std::chrono::seconds lock_wait_logged{1};

// Why a folder's lock was not had in time: who holds it (when that can be told) and what to do.
base::Failure lock_timeout(const std::string& folder, std::chrono::milliseconds waited) {
    const std::string holder = os::folder_lock_holder(folder);
    const std::string seconds =
        std::to_string(waited.count() / 1000) + "." + std::to_string(waited.count() % 1000 / 100);
    return base::Failure{folder_lock_timeout_message(folder, holder, seconds), base::ErrorReason::timeout};
}

// The bytes a transaction's work goes over: each file's old and new content (see WorkPlacement).
std::vector<std::uint64_t> sizes_of(const std::vector<FileChange>& changes) {
    std::vector<std::uint64_t> sizes;
    for (const auto& change : changes) {
        sizes.push_back(change.new_bytes.size(change.before.file.bytes));
        sizes.push_back(change.before.file.bytes.size());
    }
    return sizes;
}

}  // namespace

asio::awaitable<base::Result<std::vector<std::unique_ptr<os::FolderLock>>, base::Failure>> Transaction::lock_folders(
    CallContext& ctx) {
    using Locks = std::vector<std::unique_ptr<os::FolderLock>>;
    Locks locks;
    std::optional<asio::steady_timer> pause_timer;
    const std::vector<std::string> folders = folders_of(changes_);  // named: no temporary lives across a co_await
    for (const auto& folder : folders) {
        auto lock = std::make_unique<os::FolderLock>();
        const auto started = std::chrono::steady_clock::now();
        auto pause = first_lock_pause;
        bool logged = false;
        // Each try is one non-blocking flock; between tries this coroutine sleeps on a timer and
        // the io thread serves everything else (issue 39, item 11: it used to sleep on the io
        // thread for up to 30 s, and ping waited). Bounded by the deadline.
        for (;;) {
            auto taken = os::try_lock_folder(folder, *lock);
            if (!taken)
                co_return base::fail(
                    base::Failure{"Nothing was written: " + taken.error().message + ". Try the call again.",
                                  base::ErrorReason::io_error});
            if (*taken) break;
            if (ctx.scope.cancelled->load()) co_return base::fail(cancelled_before_writing());
            const auto waited =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
            if (waited >= ctx.settings.limits.folder_lock_wait) co_return base::fail(lock_timeout(folder, waited));
            if (!logged && waited >= lock_wait_logged) {
                const std::string holder = os::folder_lock_holder(folder);
                base::log::warn("{}: waiting for the lock of the folder {}, held by {}", tool_, folder,
                                holder.empty() ? std::string("another process") : holder);
                logged = true;
            }
            if (!pause_timer) pause_timer.emplace(co_await asio::this_coro::executor);
            pause_timer->expires_after(pause);
            co_await pause_timer->async_wait(asio::use_awaitable);
            pause = std::min(pause * 2, longest_lock_pause);
        }
        locks.push_back(std::move(lock));
    }
    co_return std::move(locks);
}

Transaction::Transaction(std::string tool, std::vector<ledger::FileLanes::Guard> lanes)
    : tool_(std::move(tool)), lanes_(std::move(lanes)) {}

ApprovalRequest Transaction::approval_request(const ShownDiff& shown, std::string asked_again_because) const {
    std::vector<ApprovalRequest::Image> images;
    for (const auto& change : changes_)
        images.push_back({change.before.file.path.real, change.before.exists ? &change.before.file.bytes : nullptr,
                          change.delete_file ? std::nullopt : std::optional<text::ByteParts>(change.new_parts())});
    return tools::approval_request(tool_, shown, std::move(images), std::move(asked_again_because));
}

std::optional<base::Failure> Transaction::elision_refusal() const {
    for (const FileChange& change : changes_) {
        if (change.delete_file) continue;
        // A move's new file (apply_patch's "Move to", changed on the way) holds the text of the file
        // it moves, which the same change deletes: the lines a marker drops are that file's.
        const FileSnapshot* before = change.before.exists ? &change.before : nullptr;
        if (!change.partner.empty())
            for (const FileChange& other : changes_)
                if (other.delete_file && other.before.exists && other.before.file.path.real == change.partner)
                    before = &other.before;
        if (!before) continue;
        const std::string& old = before->file.bytes;
        // An edit's new bytes are the old ones with one span replaced: a new marker can only be in
        // the lines that span touches, so a file is joined (and diffed) only when they hold one.
        if (const text::SplicedBytes* spliced = change.new_bytes.spliced(); spliced && before == &change.before) {
            const std::string_view ahead = std::string_view(old).substr(0, spliced->at);
            const std::size_t line_start = ahead.rfind('\n') == std::string_view::npos ? 0 : ahead.rfind('\n') + 1;
            const std::size_t tail = spliced->at + spliced->replaced;
            const std::size_t line_end = std::min(old.size(), old.find('\n', tail));
            const std::string touched =
                old.substr(line_start, spliced->at - line_start) + spliced->with + old.substr(tail, line_end - tail);
            if (!text::has_elision_marker(touched)) continue;
        }
        std::string scratch;
        const std::string& now = change.new_bytes.joined(old, scratch);
        // A file in another encoding is compared as the model wrote it: its text.
        std::optional<std::string> now_text;
        if (before->file.encoding.transcoded) now_text = before->file.encoding.text_of(now);
        if (auto found = now_text ? text::find_elision(before->file.text, *now_text, change.before.file.path.display)
                                  : text::find_elision(old, now, change.before.file.path.display))
            return base::Failure{text::elision_refusal(*found, change.before.file.path.display, tool_),
                                 base::ErrorReason::invalid_arguments};
    }
    return std::nullopt;
}

asio::awaitable<ToolResult> Transaction::carry_out(CallContext& ctx, ChangeSteps steps, Report report) {
    CarriedOutChange done;
    // A change that writes "# ... rest of the code unchanged ..." over the code it stands for is
    // refused before it is shown, asked or (dry run) reported as possible.
    if (steps.refuse_elisions) {
        auto look = [this] { return elision_refusal(); };
        const bool run_inline = WorkPlacement::inline_now(ctx, sizes_of(changes_));
        auto refused = co_await WorkPlacement::run(ctx, run_inline, std::move(look));
        if (refused) co_return ToolResult::error(std::move(*refused));
    }
    // A change that removes most of a file says so in the result too (the form and the view say it first).
    for (const auto& most : steps.shown.removes_most) done.notes.push_back(removes_most_note(most));
    if (steps.dry_run) co_return report(std::move(done));
    ApprovalDecision decision;
    // Awaiting the human's review in the view: reported as it would be written, and not written.
    const auto awaiting_review = [&] {
        done.decision = &decision;
        return report(std::move(done));
    };
    if (auto answer = co_await approve(ctx, approval_request(steps.shown, ""), decision)) co_return std::move(*answer);
    if (decision.kind == ApprovalDecision::Kind::awaiting_review) co_return awaiting_review();

    // The file changed on disk after it was loaded (another program, the human while the form was
    // open): merged when the two changes touch different lines, then shown again for approval.
    for (int merges = 0;; ++merges) {
        auto written = co_await commit(ctx);
        if (written) break;
        CommitFailure failure = std::move(written).error();
        const FileChange& only = changes_.front();
        if (failure.failure.reason != base::ErrorReason::conflict || failure.some_committed ||
            !steps.merge_when_stale || changes_.size() != 1 || !only.before.exists || only.delete_file ||
            merges == (decision.approval == ApprovalSource::user ? max_stale_merges : max_unattended_merges))
            co_return ToolResult::error(commit_failure(std::move(failure)));
        auto merged =
            co_await WorkPlacement::run(ctx, false, [&ctx, &done, this] { return merge_with_disk(ctx, done.notes); });
        if (!merged) co_return ToolResult::error(std::move(merged).error());
        steps.shown = {};
        steps.shown.add(changes_.front().before.file.path.display, *merged,
                        text::count_lines(changes_.front().before.file.shown()),
                        changes_.front().before.file.written_encoding());
        done.merged = std::move(merged).value();
        // The form's first line says why it is asked again.
        if (auto answer =
                co_await approve(ctx, approval_request(steps.shown, "merged with a change on disk"), decision))
            co_return std::move(*answer);
        if (decision.kind == ApprovalDecision::Kind::awaiting_review) co_return awaiting_review();
    }
    if (steps.after_commit) steps.after_commit();
    for (auto& note : hard_link_notes(ctx)) done.notes.push_back(std::move(note));
    base::log::debug("{} wrote {} file(s) (+{} -{})", tool_, changes_.size(), steps.shown.additions,
                     steps.shown.removals);
    done.checks = co_await check(ctx);
    done.decision = &decision;
    ToolResult result = report(std::move(done));
    co_await record(ctx, result, steps.record_history);
    co_return result;
}

base::Result<text::UnifiedDiff> Transaction::merge_with_disk(const CallContext& ctx, std::vector<std::string>& notes) {
    FileChange& change = changes_.front();
    const os::ResolvedPath path = change.before.file.path;
    FileSnapshot now;
    now.file.path = path;
    if (os::stat_path(path.real).kind != os::FileKind::regular)
        return base::fail(base::Failure{replaced_meanwhile_message(path.display), base::ErrorReason::conflict});
    if (auto loaded = load_resolved_file(ctx, path.real, now.file); !loaded)
        return base::fail(std::move(loaded).error());
    now.file.path = path;
    now.exists = true;
    std::string scratch;
    const std::string& mine = change.new_bytes.joined(change.before.file.bytes, scratch);
    // A file in another encoding is merged as text, and the merge encoded back.
    const FileEncoding& encoding = now.file.encoding;
    std::optional<std::string> mine_text;
    if (change.before.file.encoding.transcoded || encoding.transcoded) {
        if (change.before.file.encoding.transcoded && encoding.name == change.before.file.encoding.name &&
            encoding.bom == change.before.file.encoding.bom)
            mine_text = encoding.text_of(mine);
        if (!mine_text)
            return base::fail(base::Failure{
                changed_encoding_meanwhile_message(path.display, change.before.file.encoding.how, encoding.how),
                base::ErrorReason::conflict});
    }
    auto merged = text::merge_stale_change(change.before.file.shown(), mine_text ? *mine_text : mine, now.file.shown(),
                                           path.display, "while this change was being prepared");
    if (!merged) return base::fail(std::move(merged).error());
    text::DiffOptions options;
    options.old_path = path.display;
    text::UnifiedDiff diff = text::unified_diff(now.file.shown(), merged->bytes, options);
    if (notes.empty() || notes.back() != merged->note)
        notes.push_back(std::move(merged->note));  // said once per kind of merge
    if (mine_text) {
        auto bytes = encoding.bytes_of(merged->bytes, path.display);
        if (!bytes) return base::fail(std::move(bytes).error());
        merged->bytes = std::move(*bytes);
    }
    change.before = std::move(now);
    change.new_bytes = std::move(merged->bytes);
    return diff;
}

base::Failure Transaction::commit_failure(CommitFailure failed) const {
    if (changes_.size() < 2) return std::move(failed.failure);
    if (failed.revert_errors.empty())
        failed.failure.message += files_restored_note();
    else
        failed.failure.message += restore_failed_note(failed.revert_errors);
    return std::move(failed.failure);
}

std::optional<ToolResult> if_cancelled(const CallContext& ctx) {
    if (!ctx.scope.cancelled->load()) return std::nullopt;
    return ToolResult::error("Cancelled by the client; nothing was written.", base::ErrorReason::cancelled);
}

std::optional<ToolResult> unless_approved(const CallContext& ctx, const ApprovalDecision& decision) {
    // A change awaiting review is reported by its caller (which knows what it would write); one
    // that gets here is never written.
    if (decision.kind == ApprovalDecision::Kind::awaiting_review)
        return ToolResult::error(awaiting_review_refusal(decision.message), base::ErrorReason::rejected);
    if (decision.kind == ApprovalDecision::Kind::input_required) {
        ToolResult pending;
        pending.input_required = decision.input_required;
        return pending;
    }
    if (decision.kind != ApprovalDecision::Kind::approved) return ToolResult::error(decision.message, decision.reason);
    return if_cancelled(ctx);
}

asio::awaitable<std::optional<ToolResult>> Transaction::approve(CallContext& ctx, ApprovalRequest ask,
                                                                ApprovalDecision& decision) {
    // A file the user cannot write is not replaced behind its permissions (the rename could):
    // refused before anyone is asked.
    for (const auto& change : changes_) {
        if (!change.before.exists) continue;
        const auto writable = os::may_write(change.before.file.path.real, change.before.file.stat);
        if (!writable)
            co_return ToolResult::error(
                not_writable_message(change.before.file.path.display, writable.error().message, change.delete_file),
                base::ErrorReason::not_writable);
    }
    const auto reads_go_on = [&ctx, this](bool waiting) {
        for (const auto& lane : lanes_) ctx.lanes.let_reads_pass(lane.key(), waiting);
    };
    ask.waiting_for_human = [&reads_go_on] { reads_go_on(true); };
    decision = co_await ctx.approve(ask);
    reads_go_on(false);
    if (decision.kind == ApprovalDecision::Kind::awaiting_review) co_return std::nullopt;  // carry_out reports it
    co_return unless_approved(ctx, decision);
}

asio::awaitable<base::Result<void, CommitFailure>> Transaction::commit(CallContext& ctx) {
    // A lone small write stays on the io thread, fsync included: with one call in flight only a
    // ping could wait behind the sync, and two thread hand-overs cost more than the sync itself on
    // a local disk (~0.15 ms of a 0.5 ms durable edit, measured). Waiting for a folder's lock never
    // does: lock_folders waits on a timer.
    std::vector<StagedChange> staged;
    auto stage_work = [&ctx, &staged, this] { return stage_all(ctx, changes_, staged); };
    bool run_inline = WorkPlacement::inline_now(ctx, sizes_of(changes_));
    if (auto r = co_await WorkPlacement::run(ctx, run_inline, std::move(stage_work)); !r) co_return std::move(r);
    // The re-check and the renames happen under the folders' locks, so a second mcp-edit process
    // on the same tree sees this one's result.
    auto locks = co_await lock_folders(ctx);
    if (!locks) {
        auto give_up = [&ctx, &staged, &locks] { return abandon(ctx, staged, std::move(locks).error()); };
        run_inline = WorkPlacement::inline_now(ctx, sizes_of(changes_));  // asked again: calls came and went
        co_return co_await WorkPlacement::run(ctx, run_inline, std::move(give_up));
    }
    auto write_work = [&ctx, &staged] { return recheck_and_commit(ctx, staged); };
    run_inline = WorkPlacement::inline_now(ctx, sizes_of(changes_));
    co_return co_await WorkPlacement::run(ctx, run_inline, std::move(write_work));
}

std::vector<std::string> Transaction::hard_link_notes(const CallContext& ctx) const {
    std::vector<std::string> notes;
    if (ctx.settings.write_through_hard_links) return notes;
    for (const auto& change : changes_) {
        const auto links = change.before.file.stat.links;
        if (change.delete_file || !change.before.exists || links < 2 || change.write_through) continue;
        const auto others = links - 1;
        notes.push_back(own_file_for_hard_links_note(change.before.file.path.display, others));
    }
    return notes;
}

asio::awaitable<std::vector<checks::CheckOutcome>> Transaction::check(CallContext& ctx) const {
    if (!ctx.checks || ctx.checks->empty()) co_return std::vector<checks::CheckOutcome>{};
    std::vector<checks::CheckTarget> targets;
    // A check reads the new bytes as one string: an edit's parts are joined for it (kept until the
    // checks end; a deque keeps each string where it is).
    std::deque<std::string> joined;
    for (const FileChange& change : changes_) {
        if (change.delete_file) continue;
        targets.push_back({change.before.file.path.real, change.before.file.path.display,
                           change.before.exists ? &change.before.file.bytes : nullptr,
                           &change.new_bytes.joined(change.before.file.bytes, joined.emplace_back())});
    }
    if (targets.empty()) co_return std::vector<checks::CheckOutcome>{};
    // The write is committed: reads of these files no longer wait for the checks (they see the
    // committed bytes on disk). Changes still queue, so the file a check reads is the one written.
    for (const auto& lane : lanes_) ctx.lanes.let_reads_pass(lane.key(), true);
    struct StopPassing {
        CallContext& ctx;
        const std::vector<ledger::FileLanes::Guard>& lanes;
        ~StopPassing() {
            for (const auto& lane : lanes) ctx.lanes.let_reads_pass(lane.key(), false);
        }
    } stop_passing{ctx, lanes_};
    co_return co_await ctx.checks->run(ctx.workspace, std::move(targets), ctx.scope.cancelled);
}

asio::awaitable<void> Transaction::record(CallContext& ctx, ToolResult& result, bool record_history) {
    for (const auto& change : changes_)
        if (change.delete_file) ctx.file_states.forget(change.before.file.path.real);
    // The lanes and the changes, held until the bookkeeping after the reply has recorded them.
    struct HeldUntilRecorded {
        std::vector<ledger::FileLanes::Guard> lanes;
        std::vector<FileChange> changes;
    };
    // Listed before the reply goes, so the client's next request sees the file; its base is kept
    // afterwards (whole once per file, or a big file's as a delta), while the lane is still held.
    std::vector<char> first(changes_.size(), 0);
    if (ctx.session_changes)
        for (std::size_t i = 0; i < changes_.size(); ++i)
            first[i] = ctx.session_changes->note_change(changes_[i].before.file.path.real, changes_[i].before.exists);
    // The journal (--history-dir) is written before the reply: a change the client was told of
    // survives a server killed right after telling it.
    if (ctx.journal) {
        const bool journal_history = record_history && ctx.history;
        co_await WorkPlacement::run(ctx, WorkPlacement::inline_now(ctx, sizes_of(changes_)), [&] {
            for (std::size_t i = 0; i < changes_.size(); ++i) {
                const FileChange& change = changes_[i];
                const std::string& real = change.before.file.path.real;
                if (first[i]) ctx.journal->based(real, change.before.exists, change.before.file.bytes);
                std::string scratch;
                if (journal_history)
                    ctx.journal->recorded(
                        real, tool_, change.before.exists, change.before.file.bytes,
                        change.delete_file ? nullptr : &change.new_bytes.joined(change.before.file.bytes, scratch),
                        change.before.exists ? change.before.file.stat.mode : 0, change.partner);
            }
            return true;
        });
    }
    auto held = std::make_shared<HeldUntilRecorded>(HeldUntilRecorded{std::move(lanes_), std::move(changes_)});
    result.after_reply = WorkPlacement::after_reply(
        ctx.blocking, sizes_of(held->changes),
        [held, file_states = &ctx.file_states, history = record_history ? ctx.history : nullptr, tool = tool_,
         session_changes = ctx.session_changes, blocking = ctx.blocking] {
            for (auto& change : held->changes) {
                const std::string& real = change.before.file.path.real;
                const std::string_view before =
                    change.before.exists ? std::string_view(change.before.file.bytes) : std::string_view();
                const text::ByteParts after = change.new_parts();
                std::optional<ledger::Fingerprint> written;
                if (!change.delete_file) written = ledger::Fingerprint::of(after.span());
                if (session_changes)  // the base (first change), or a big file's base delta carried forward
                    session_changes->changed(real, before, change.delete_file ? std::nullopt : std::optional(after),
                                             written);
                // What was written, in one string kept once: by the file states (for a later
                // merge) and by the undo history (its after-image), when small enough for each.
                std::shared_ptr<const std::string> joined;
                if (written &&
                    after.size() <= std::max(ledger::FileStates::max_seen_file, ledger::History::max_kept_after))
                    joined = std::make_shared<const std::string>(after.joined());
                if (joined && after.size() <= ledger::FileStates::max_seen_file)
                    file_states->record_with_bytes(real, *written, joined);
                else if (written)
                    file_states->record(real, *written);
                if (history)
                    history->record(tool, real, change.before.exists, before,
                                    change.delete_file ? text::ByteParts() : after, std::move(written),
                                    change.before.exists ? change.before.file.stat.mode : 0, std::move(change.partner),
                                    std::move(joined));
                // The replaced file's last reference, when it was kept: closing it frees its blocks
                // (hundreds of microseconds on ext4), so it is closed on the pool, not on the
                // thread that reads the client's next request.
                if (change.before.file.open_file)
                    asio::post(blocking, [kept = std::move(change.before.file.open_file)]() mutable { kept.reset(); });
            }
        });
}

}  // namespace tools
