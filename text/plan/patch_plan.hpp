// Applying one file's part of a patch to its bytes, in memory: every block located on the original
// content, then all spliced at once. The semantics shared by all three apply_diff formats.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/match/matcher.hpp"
#include "text/patch/patch_model.hpp"
#include "base/result.hpp"

namespace text {

struct PlanOptions {
    PatchFormat format = PatchFormat::search_replace;  // words used in messages (block, hunk, chunk)
    std::string_view display_path;                     // names the file in messages when the FilePatch has no path
    // Below 1: a block that no matching tier finds may apply where its lines are at least this
    // similar (Levenshtein) to the file's. Read as at least 0.5. 1 (the default): never.
    double fuzzy_threshold = 1.0;
    // Without a stated line the whole file is searched; with one, these lines on each side of it.
    std::size_t fuzzy_window = 40;
    // The most similar place is used only when no other place (sharing none of its lines) is within
    // this much similarity of it: a block about as like two places names neither.
    double fuzzy_margin = 0.05;
    std::size_t fuzzy_budget = 40'000'000;  // Levenshtein cells per file, at most; when they run out
                                            // before the best place is certain, nothing is applied
};

// How a block was placed: the matcher's tier, or by similarity, or as an insertion, a created or a
// deleted file.
enum class BlockMatch {
    exact,
    trailing_whitespace,
    unicode_normalized,
    indentation,
    line_numbers,
    fuzzy,
    aligned,   // its old lines found in order with file lines it left out between them (kept)
    inserted,  // a block with no old lines
    created,
    deleted,
};
// to_string(MatchTier) for the tiers, then "fuzzy", "aligned", "inserted", "created", "deleted"
const char* to_string(BlockMatch match);
BlockMatch block_match(MatchTier tier);

// Why a block (or the whole file) could not be applied.
enum class BlockFailureKind { not_found, already_applied, ambiguous, identical, overlap, bad_line, already_exists };
// "not_found", "already_applied", "ambiguous", "identical", "overlap", "bad_line", "already_exists"
const char* to_string(BlockFailureKind kind);

struct BlockReport {
    std::size_t index = 0;        // PatchBlock::index
    std::size_t patch_line = 0;   // PatchBlock::patch_line
    std::size_t line = 0;         // 1-based line of the original file where the block applied
                                  // (its first replaced line; for an insertion, the line it went before)
    std::size_t stated_line = 0;  // the line the block gave (:start_line:, hunk header); 0 = none
    BlockMatch match = BlockMatch::exact;
    double similarity = 1.0;  // below 1 only for fuzzy
};

struct FilePlan {
    FileAction action = FileAction::update;
    std::string path;                    // FilePatch::path
    std::optional<std::string> move_to;  // FilePatch::move_to
    std::string bytes;                   // the new content; empty for a deletion
    std::vector<BlockReport> blocks;
};

struct BlockFailure {
    std::size_t index = 0;
    std::size_t patch_line = 0;
    BlockFailureKind kind = BlockFailureKind::not_found;
    std::string message;  // the reason alone (PlanError::message has the whole story)
};

struct PlanError {
    std::string message;  // for the model: which blocks, which file, what failed, why, what next
    std::vector<BlockFailure> failures;
};

// The new content of one file. `original`: its bytes, or nullopt when it does not exist.
// update: each block's old lines are located on `original` (text::match_edit with the stated line as
// hint; a pure insertion goes after its stated line); then all replacements are spliced at once, in
// the file's newline style. Blocks must not overlap. When a block reaches the end of the file, the
// result ends with a newline as the block says (PatchBlock::final_newline) or as the file did.
// create: the added lines (the file must not exist, or be empty). remove: "delete"; when the patch
// shows the removed lines, they must be the file's content.
// All or nothing: any failing block fails the file, and the error lists every failing block.
base::Result<FilePlan, PlanError> plan_file_patch(std::optional<std::string_view> original, const FilePatch& file,
                                                  const PlanOptions& options = {});

}  // namespace text
