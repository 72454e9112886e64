// The files of a change written all or nothing (the transaction's commit): every file staged first
// (a temp file beside it, nothing renamed yet), then, under the folders' locks, every file checked
// unchanged since it was read and renamed over it in order; a failure takes back what was staged
// and reverts what was written.
#pragma once

#include <vector>

#include "os/file_writes.hpp"
#include "tools/pipeline/transaction.hpp"

namespace tools {

// One file's write between staging and commit.
struct StagedChange {
    const FileChange* change = nullptr;  // what is written (outlives this)
    bool in_place = false;               // several hard links: written over the file itself at commit
    bool has_temp = false;
    bool committed = false;
    os::StagedWrite staged;
};

// Takes back what was staged or committed after `why` stopped the commit: discards the temp files,
// reverts the files already written (in reverse order).
base::Result<void, CommitFailure> abandon(const CallContext& ctx, std::vector<StagedChange>& staged, base::Failure why);

// Stages every change (temp files beside the targets, nothing renamed yet).
base::Result<void, CommitFailure> stage_all(const CallContext& ctx, const std::vector<FileChange>& changes,
                                            std::vector<StagedChange>& staged);

// The answer to a call cancelled before its first rename, as if_cancelled words it (issue 39, item
// 10: one cancelled while it waited for a folder's lock was written once the lock came free). The
// client never sees it (a cancelled request gets no response); the log does.
base::Failure cancelled_before_writing();

// With the folders locked: re-checks every file, then commits them in order, all or nothing. A
// call cancelled by now writes nothing: this is the last moment before the first rename.
base::Result<void, CommitFailure> recheck_and_commit(const CallContext& ctx, std::vector<StagedChange>& staged);

}  // namespace tools
