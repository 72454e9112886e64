// The path every single-file change travels: resolve, take the file's lane, load, plan (pure),
// diff, then a transaction of one file (dry run, or gate, re-check and write atomically, record),
// and the result the contract describes. Each single-file tool only supplies its planner.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "os/file_status.hpp"
#include "text/match/matcher.hpp"
#include "tools/tool.hpp"
#include "tools/pipeline/transaction.hpp"

namespace tools {

// What a planner decided.
struct Plan {
    NewBytes new_bytes;        // over the bytes planned on (before.file.bytes)
    bool delete_file = false;  // the change removes the file (undo of a creation)
    std::size_t replacements = 0;
    std::optional<text::MatchTier> match;  // the matching tier, for tools that match (none: "none")
    std::string undoes;                    // undo: the tool whose change this reverts (the summary says so)
    std::optional<os::FileStat> like;      // a file created: the mode (and owner) it takes (undo of a deletion)
    std::vector<std::string> notes;        // what was kept or adapted, for the model
    Json extra = Json::object();           // tool-specific structured fields
};

// A planner's refusal: the message for the model and why.
inline base::Unexpected<base::Failure> plan_error(std::string message,
                                                  base::ErrorReason reason = base::ErrorReason::other) {
    return base::fail(base::Failure{std::move(message), reason});
}

// Planners run on the blocking executor; they return the plan or the error for the model.
using Planner = std::function<base::Result<Plan>(const FileSnapshot& before, const std::string& display_path)>;

struct ChangeRequest {
    ChangeRequest(std::string tool_name, std::string path, bool dry)
        : tool(std::move(tool_name)), file_path(std::move(path)), dry_run(dry) {}

    std::string tool;       // "edit", "write", ...
    std::string file_path;  // as the model gave it
    bool dry_run = false;
    // Whether a missing file is acceptable to the planner (creation); otherwise "not found".
    bool may_create = false;
    Planner planner;
    // Recorded in the history (so undo can revert it); undo itself is not.
    bool record_history = true;
    // Runs on the io thread after a successful write.
    std::function<void()> after_write;
    // When the file changed on disk between planning and writing: merge the two changes when they
    // touch different lines (and ask again), instead of failing. Off for undo, which restores exact bytes.
    bool merge_when_stale = true;
    // The planner works on the file's text as the model reads it (UTF-8: a file in another encoding
    // is decoded for it, and its plan encoded back). Off for undo, which plans the bytes on disk.
    bool plans_on_text = true;
    // Refuse new text that puts an elision marker where it drops lines of the file (ChangeSteps::refuse_elisions).
    bool refuse_elisions = false;
    // Whether ignore rules refuse the path (an error) or not; unset: refuse_ignored for a write.
    // undo sets its own (it may restore this server's own change of a file ignored since).
    std::function<base::Result<void>(const os::ResolvedPath&)> refuse_ignored;
};

asio::awaitable<ToolResult> run_change(CallContext& ctx, ChangeRequest request);

// A matching tier's name as results show it; "none" when the tool matched no text.
inline std::string tier_name(const std::optional<text::MatchTier>& tier) {
    return tier ? text::to_string(*tier) : "none";
}

// For changes that rely on what the model saw of a file: lines placed by number (insert, a
// patch's pure insertion) or a file deleted unseen. Succeeds when this session has read or written
// `before` and its content has not changed since (success); otherwise the refusal for the model: that it was
// never read, or that it changed, then `why` (what the change relies on), the file's facts now
// (lines as read counts them, sha256 as read reports it), and `next` (the call that would work).
base::Result<void> seen_and_unchanged(const ledger::FileStates& states, const FileSnapshot& before,
                                      const std::string& display, const std::string& why, const std::string& next);

// The lane key of a resolved path: device + inode for a file with several hard links (written in
// place, so its inode is stable), else the real path (stable across our renames).
std::string lane_key(const std::string& real_path);
// The same from a stat of it the caller already has.
std::string lane_key(const std::string& real_path, const os::FileStat& st);

}  // namespace tools
