// The planner's locating strategies: where one block of a patch goes in the original file. Each
// returns the place or why there is none; the planner collects them and assembles the file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "text/plan/original_file.hpp"
#include "text/patch/patch_model.hpp"
#include "text/plan/patch_plan.hpp"
#include "text/plan/plan_messages.hpp"

namespace text {

// Where one block goes.
struct Located {
    std::size_t block = 0;  // position in FilePatch::blocks
    std::size_t begin = 0;  // byte range of the original
    std::size_t end = 0;
    std::string text;     // the new text, "\n" newlines
    bool at_eof = false;  // the range reaches the end of the file
    bool append = false;  // an insertion at the very end: added after the splice
    std::size_t first_line = 0;
    std::size_t last_line = 0;  // first_line - 1 for an insertion
    BlockMatch match = BlockMatch::exact;
    double similarity = 1.0;
};

// Why a block has no place: its failure kind and the reason alone.
struct Unplaced {
    BlockFailureKind kind = BlockFailureKind::not_found;
    std::string message;
};

using Placement = base::Result<Located, Unplaced>;

// What every strategy reads: the options, the words of the messages, the original file.
struct PlanContext {
    const PlanOptions& options;
    PlanSubject subject;
    OriginalFile& file;
};

// The block at `position` of a file, and the last line of the block before it (apply_patch
// chunks come in order: 0 when none).
struct BlockAt {
    const PatchBlock& block;
    std::size_t position = 0;
    std::size_t previous_end = 0;
};

// The first line from `from` on (then from the top) equal to `anchor`, or equal once both are
// trimmed of spaces and tabs.
std::optional<std::size_t> find_anchor(OriginalFile& file, const std::string& anchor, std::size_t from);

// A block with no old lines: after its stated line, after its anchors, or at the end.
Placement locate_insertion(PlanContext& ctx, const BlockAt& at);

// The similarity search's state over one file's blocks: its lines and the work already spent.
struct SimilarityBudget {
    std::vector<std::string_view> lines;
    std::size_t spent = 0;
};

// What similarity matching decided: a place, a failure of the block, or neither (with a note that
// the not-found message gets).
struct SimilarityOutcome {
    std::optional<Located> place;
    std::optional<Unplaced> failure;
    std::string note;
};
SimilarityOutcome locate_by_similarity(PlanContext& ctx, const BlockAt& at, std::optional<std::size_t> hint,
                                       SimilarityBudget& budget);

// A block with old lines: the matcher on the file (after anchors and the previous chunk, near the
// stated line first on large files), then by similarity when allowed.
Placement locate_by_match(PlanContext& ctx, const BlockAt& at, SimilarityBudget& budget);

}  // namespace text
