// The files of an apply_diff patch, planned: each file's section loaded, matched and planned (all
// or nothing: every failure named at once), its diff made, then handed over to the transaction in
// an order that a failure can still undo.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "text/plan/patch_plan.hpp"
#include "tools/pipeline/transaction.hpp"

namespace tools {

// One file of the patch, from its paths to its planned bytes.
struct FileWork {
    const text::FilePatch* patch = nullptr;
    os::ResolvedPath source;
    std::optional<os::ResolvedPath> destination;  // a move
    FileSnapshot before;                          // the source as it is
    FileSnapshot destination_before;              // the move's target (must be absent)
    text::FilePlan plan;
    text::UnifiedDiff diff;
    std::vector<std::string> notes;  // what was made of a new file's text (.editorconfig, .gitattributes)
    // Other names of this file that had their own section (hard links, symlinks, other spellings),
    // and how they are the same file: their blocks were merged into this one's.
    std::vector<std::string> aliases;
    std::string alias_reason;
    text::FilePatch* own_patch = nullptr;  // the merged section (in the handler's store) when aliases exist
    bool created() const { return patch->action == text::FileAction::create; }
    bool deleted() const { return patch->action == text::FileAction::remove; }
    const os::ResolvedPath& result_path() const { return destination ? *destination : source; }
};

// Every file of the patch planned, and its blocks counted as the report counts them.
struct PlannedPatch {
    std::vector<FileWork> files;
    std::size_t blocks = 0;
};

// A file's section that has no block of its own (a deletion, a move, an empty creation) still
// counts as one step of the patch: it is reported as one block.
std::size_t blocks_of(const text::FilePatch& patch);

// Loads, plans and diffs every file of the patch; one failure fails it, naming every file that failed.
base::Result<PlannedPatch> plan_patch(const CallContext& ctx, std::vector<FileWork> files, double fuzzy_threshold,
                                      text::PatchFormat format);

// Moves every planned file into `change`: writes before deletions (and a move's source after its
// destination is written), so a failure can still restore everything.
void hand_over(std::vector<FileWork>& files, Transaction& change);

}  // namespace tools
