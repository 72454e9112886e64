// Staged writes (staged_writes.hpp): each file staged beside its target (or written in place
// over its hard links), re-checked against what was read, renamed in order; a failure reverts the
// files already written, in reverse order.
#include "tools/pipeline/staged_writes.hpp"

#include "ledger/fingerprint.hpp"
#include "os/paths.hpp"
#include "os/file_reads.hpp"
#include "tools/pipeline/transaction_messages.hpp"

namespace tools {

namespace {

base::Unexpected<base::Failure> io_failure(std::string message) {
    return base::fail(base::Failure{std::move(message), base::ErrorReason::io_error});
}

base::Result<void> stage(const CallContext& ctx, const FileChange& change, StagedChange& out) {
    const FileSnapshot& before = change.before;
    const bool delete_file = change.delete_file;
    const os::FileStat* like_new = change.like ? &*change.like : nullptr;
    const auto& path = before.file.path;
    out.change = &change;
    out.in_place = !delete_file && before.exists && before.file.stat.links > 1 &&
                   (ctx.settings.write_through_hard_links || change.write_through);
    if (!before.exists) {
        const std::string dir = os::parent_of(path.real);
        if (auto made = os::make_directories(dir, ctx.settings.fsync); !made)
            return io_failure(cannot_create_folders_message(path.display, made.error().message));
    }
    if (!out.in_place && !delete_file) {
        // A file replaced by another takes the other's mode and owner when asked (`like`: a move over
        // an existing file keeps the moved file's, as a plain move does); else it keeps its own.
        auto staged = os::stage_write(path.real, change.new_parts().span(),
                                      like_new        ? like_new
                                      : before.exists ? &before.file.stat
                                                      : nullptr,
                                      ctx.settings.fsync);
        if (!staged) return io_failure(cannot_write_message(path.display, staged.error().message, true));
        out.staged = std::move(staged.value());
    }
    out.has_temp = !out.in_place && !delete_file;
    return {};
}

// Same file, untouched since it was read (or still absent). When the stat differs, the content
// decides, so a touch that kept the bytes is not a conflict.
base::Result<void> verify_unchanged(const CallContext& ctx, const FileSnapshot& before) {
    const auto& path = before.file.path;
    const os::FileStat now = os::stat_path(path.real);
    std::string conflict;
    if (!before.exists) {
        if (now.kind != os::FileKind::missing) conflict = created_meanwhile_conflict(path.display);
    } else if (!now.same_version(before.file.stat)) {
        if (now.kind == os::FileKind::missing) {
            conflict = deleted_meanwhile_conflict(path.display);
        } else if (const auto current = os::read_regular_file(path.real, ctx.settings.limits.max_file_size);
                   !current || ledger::Fingerprint::of(current->bytes) != before.file.fingerprint()) {
            text::DiffOptions options;
            options.old_path = path.display;
            const std::string unread;  // what the diff shows of a file that cannot be read now
            const auto fresh = text::unified_diff(before.file.bytes, current ? current->bytes : unread, options);
            conflict = changed_meanwhile_conflict(path.display, fresh.text);
        }
    }
    if (conflict.empty()) return {};
    return base::fail(base::Failure{conflict_message(conflict), base::ErrorReason::conflict});
}

base::Result<void> commit_one(const CallContext& ctx, StagedChange& change) {
    const FileSnapshot& before = change.change->before;
    const auto& path = before.file.path;
    if (change.change->delete_file) {
        if (auto removed = os::remove_file(path.real, ctx.settings.fsync); !removed)
            return io_failure(cannot_remove_message(path.display, removed.error().message));
    } else if (change.in_place) {
        std::string scratch;
        const std::string& new_bytes = change.change->new_bytes.joined(before.file.bytes, scratch);
        if (auto written = os::overwrite_in_place(path.real, before.file.bytes, new_bytes, ctx.settings.fsync);
            !written)
            return io_failure(cannot_write_message(path.display, written.error().message, false));
    } else {
        change.has_temp = false;  // renamed, or removed by a failed rename
        if (auto committed = os::commit_staged(change.staged, ctx.settings.fsync); !committed)
            return io_failure(cannot_write_message(path.display, committed.error().message, true));
    }
    change.committed = true;
    return {};
}

void discard(StagedChange& change) {
    if (change.has_temp) os::discard_staged(change.staged);
    change.has_temp = false;
}

// Puts back what `change` replaced (the old bytes; removes a file it created); "" when it did.
std::string revert(const CallContext& ctx, const StagedChange& change) {
    const FileSnapshot& before = change.change->before;
    const auto& path = before.file.path;
    if (!before.exists) {
        auto removed = os::remove_file(path.real, ctx.settings.fsync);
        return removed ? "" : path.display + ": " + removed.error().message;
    }
    if (change.in_place) {
        std::string scratch;
        const std::string& new_bytes = change.change->new_bytes.joined(before.file.bytes, scratch);
        auto written = os::overwrite_in_place(path.real, new_bytes, before.file.bytes, ctx.settings.fsync);
        return written ? "" : path.display + ": " + written.error().message;
    }
    auto staged = os::stage_write(path.real, before.file.bytes, &before.file.stat, ctx.settings.fsync);
    if (!staged) return path.display + ": " + staged.error().message;
    auto committed = os::commit_staged(staged.value(), ctx.settings.fsync);
    return committed ? "" : path.display + ": " + committed.error().message;
}

}  // namespace

// Takes back what was staged or committed after `why` stopped the commit: discards the temp files,
// reverts the files already written (in reverse order).
base::Result<void, CommitFailure> abandon(const CallContext& ctx, std::vector<StagedChange>& staged,
                                          base::Failure why) {
    CommitFailure out{std::move(why), "", false};
    for (auto it = staged.rbegin(); it != staged.rend(); ++it) {
        if (it->committed) {
            out.some_committed = true;
            if (auto e = revert(ctx, *it); !e.empty()) out.revert_errors += "\n- " + e;
        } else {
            discard(*it);
        }
    }
    staged.clear();
    return base::fail(std::move(out));
}

// Stages every change (temp files beside the targets, nothing renamed yet).
base::Result<void, CommitFailure> stage_all(const CallContext& ctx, const std::vector<FileChange>& changes,
                                            std::vector<StagedChange>& staged) {
    staged.reserve(changes.size());
    for (const auto& change : changes) {
        staged.emplace_back();
        if (auto r = stage(ctx, change, staged.back()); !r) {
            staged.pop_back();
            return abandon(ctx, staged, std::move(r).error());
        }
    }
    return {};
}

// The answer to a call cancelled before its first rename, as if_cancelled words it (issue 39, item
// 10: one cancelled while it waited for a folder's lock was written once the lock came free). The
// client never sees it (a cancelled request gets no response); the log does.
base::Failure cancelled_before_writing() {
    return base::Failure{cancelled_before_writing_message(), base::ErrorReason::cancelled};
}

// With the folders locked: re-checks every file, then commits them in order, all or nothing. A
// call cancelled by now writes nothing: this is the last moment before the first rename.
base::Result<void, CommitFailure> recheck_and_commit(const CallContext& ctx, std::vector<StagedChange>& staged) {
    if (ctx.scope.cancelled->load()) return abandon(ctx, staged, cancelled_before_writing());
    for (const auto& change : staged)
        if (auto r = verify_unchanged(ctx, change.change->before); !r)
            return abandon(ctx, staged, std::move(r).error());
    for (auto& change : staged)
        if (auto r = commit_one(ctx, change); !r) return abandon(ctx, staged, std::move(r).error());
    return {};
}

}  // namespace tools
