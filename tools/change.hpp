// The path every single-file change travels: resolve, take the file's lane, load, plan (pure),
// diff, dry run or gate, re-check and write atomically, record, and the result the contract
// describes. Each mutating tool only supplies its planner.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "os/platform.hpp"
#include "tools/file_access.hpp"
#include "tools/tool.hpp"

namespace tools {

// The file as a planner sees it: present (bytes and facts) or absent (a new file).
struct FileSnapshot {
    bool exists = false;
    LoadedFile file;  // valid when exists
};

// What a planner decided.
struct Plan {
    std::string new_bytes;
    bool delete_file = false;          // the change removes the file (undo of a creation)
    std::size_t replacements = 0;
    std::string match = "none";        // the matching tier, for tools that match
    std::string undoes;                // undo: the tool whose change this reverts (the summary says so)
    std::vector<std::string> notes;    // what was kept or adapted, for the model
    Json extra = Json::object();       // tool-specific structured fields
};

// Planners run on the blocking executor; they return the plan or an error message and its reason.
struct PlanOutcome {
    std::optional<Plan> plan;
    std::string error;
    base::ErrorReason reason = base::ErrorReason::other;
    static PlanOutcome fail(std::string message, base::ErrorReason reason = base::ErrorReason::other) {
        return {std::nullopt, std::move(message), reason};
    }
};
using Planner = std::function<PlanOutcome(const FileSnapshot& before, const std::string& display_path)>;

struct ChangeRequest {
    std::string tool;        // "edit", "write", ...
    std::string file_path;   // as the model gave it
    bool dry_run = false;
    // Whether a missing file is acceptable to the planner (creation); otherwise "not found".
    bool may_create = false;
    Planner planner;
    // Recorded in the history (so undo can revert it); undo itself is not.
    bool record_history = true;
    // Runs on the io thread after a successful write.
    std::function<void()> after_write;
};

asio::awaitable<ToolResult> run_change(CallContext& ctx, ChangeRequest request);

// What the gate's decision means for the call: nullopt = go on and write; otherwise the result to
// answer with (the input_required round trip, a refusal, or a cancellation).
std::optional<ToolResult> unless_approved(const CallContext& ctx, const ApprovalDecision& decision);

// Writes `new_bytes` over the file `before` describes (or creates it when it did not exist):
// staged beside it, re-checked (still the same file, same content; or still absent), then
// renamed over it; a file with several hard links is written in place. "" on success, else the
// error for the model (nothing written on a conflict; the error carries what changed), and its
// reason in `*reason` when given (conflict, io_error).
std::string write_checked(const CallContext& ctx, const FileSnapshot& before, std::string_view new_bytes,
                          bool delete_file = false, base::ErrorReason* reason = nullptr);

// The steps of write_checked, for changes of several files that must land together (apply_diff):
// stage every file, verify every file, then commit; on a failure, discard what is staged and
// revert what was committed. Each returns "" on success, else the error for the model.
struct StagedChange {
    const FileSnapshot* before = nullptr;
    std::string_view new_bytes;
    bool delete_file = false;
    bool in_place = false;   // several hard links: written over the file itself at commit
    bool has_temp = false;
    bool committed = false;
    platform::StagedWrite staged;
};
std::string stage_change(const CallContext& ctx, const FileSnapshot& before, std::string_view new_bytes,
                         bool delete_file, StagedChange& out);
std::string verify_unchanged(const CallContext& ctx, const FileSnapshot& before);
std::string commit_change(const CallContext& ctx, StagedChange& change);
void discard_change(StagedChange& change);
// Puts back what `change` replaced (the old bytes; removes a file it created).
std::string revert_committed(const CallContext& ctx, const StagedChange& change);

// For changes that rely on what the model saw of a file: lines placed by number (insert, a
// patch's pure insertion) or a file deleted unseen. nullopt when this session has read or written
// `before` and its content has not changed since; otherwise the refusal for the model: that it was
// never read, or that it changed, then `why` (what the change relies on), the file's facts now
// (lines as read counts them, sha256 as read reports it), and `next` (the call that would work).
std::optional<base::Failure> unseen_or_stale(const FileStates& states, const FileSnapshot& before,
                                           const std::string& display, const std::string& why, const std::string& next);

// The lane key of a resolved path: device + inode for a file with several hard links (written in
// place, so its inode is stable), else the real path (stable across our renames).
std::string lane_key(const std::string& real_path);
// The same from a stat of it the caller already has.
std::string lane_key(const std::string& real_path, const platform::FileStat& st);

}  // namespace tools
