// What the `move` and `delete` tools (and undo of a move) share: each changes a whole file, not its
// lines. A file named for it is resolved and loaded as bytes, a file whose content is lost must have
// been seen, and the change goes through the same transaction as every other (lanes in sorted
// order, one approval over a git diff, atomic commit) and reports in the one_file shape.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ledger/file_lanes.hpp"
#include "text/diff/unified_diff.hpp"
#include "tools/pipeline/file_access.hpp"
#include "tools/pipeline/transaction.hpp"

namespace tools {

// The lanes of these paths, each once, taken in sorted order (no deadlock with another multi-file change).
asio::awaitable<std::vector<ledger::FileLanes::Guard>> take_lanes(CallContext& ctx, std::string first,
                                                                  std::string second = {});

// A file named for a move or a deletion, through the boundary: inside the roots, not ignored, not
// a symlink, a regular file (folders are told what works). `role` names it in messages ("from").
base::Result<os::ResolvedPath> resolve_existing(const CallContext& ctx, const std::string& path,
                                                const std::string& tool, const std::string& role);

// The snapshot of a file that is not there (where a move puts its file, where undo recreates one).
FileSnapshot absent_snapshot(const os::ResolvedPath& path);

// The snapshot of an existing file, any bytes: a move or a deletion carries a binary or UTF-16 file as it is.
base::Result<FileSnapshot> load_as_bytes(const CallContext& ctx, const os::ResolvedPath& path);

// Whether read shows `file` as text (it refuses binary and UTF-16/32 files).
bool readable_text(const LoadedFile& file);

// A file whose content is lost by the call (deleted, or replaced by a move) must have been read by
// this session and be unchanged since. A file read cannot show as text (binary, UTF-16/32; an image
// it shows and records) needs no read when the session has not seen it: the call names its size and
// sha256, and undo puts its bytes back. Once seen, it must be unchanged, as any file.
base::Result<void> seen_before_loss(const CallContext& ctx, const FileSnapshot& file, const std::string& display,
                                    const std::string& why, const std::string& next);

// The diff of `gone` deleted, at most `max_bytes` long.
text::UnifiedDiff deletion_diff(const FileSnapshot& gone, std::size_t max_bytes);

// Two diffs shown as one (a move over a file: the replaced file's change, then the source's deletion).
void append_diff(text::UnifiedDiff& into, text::UnifiedDiff more);

// What a move or deletion reports (one_file shape; move.json and delete.json describe it).
struct WholeFileOutcome {
    std::string summary;
    std::string file_path;  // real path: the destination of a move, the deleted file
    text::UnifiedDiff diff;
    std::vector<std::string> notes;
    Json fields = Json::object();
};

// The answer for `outcome` (after the approval's `decision` and the checks, if it was carried out).
ToolResult report_whole_file(WholeFileOutcome outcome, bool dry_run, const ApprovalDecision* decision,
                             std::vector<checks::CheckOutcome> checks = {});

// Carries out `change` (its changes filled in; only shown for a dry run), answering with
// `outcome`. `after_commit` runs once the files are written (undo pops its history there).
asio::awaitable<ToolResult> carry_out_whole_file(CallContext& ctx, Transaction& change, WholeFileOutcome outcome,
                                                 std::string first_path, std::string second_path, bool dry_run,
                                                 bool record_history, std::function<void()> after_commit = {});

}  // namespace tools
