// Every message the planner writes for the model (which block, which file, what failed, why, what
// next), in the words of the patch's format: the locating strategies and the assembly report facts,
// this file words them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/match/matcher.hpp"
#include "text/patch/patch_model.hpp"
#include "text/plan/patch_plan.hpp"
#include "text/plan/patch_similarity.hpp"

namespace text {

// The words of one format.
struct PlanWords {
    const char* block;     // "block"
    const char* Block;     // "Block"
    const char* old_name;  // passed to the matcher
    const char* new_name;
    const char* old_text;  // "The SEARCH text"
    const char* patch;     // "diff"
};
PlanWords plan_words(PatchFormat format);

// Who the messages are about: the format, its words, and the file's name.
struct PlanSubject {
    PatchFormat format = PatchFormat::search_replace;
    PlanWords words;
    std::string name;  // the path, the display path, or "the file"
};

// ---- locating ----
std::string missing_file_message(const PlanSubject& s);
std::string identical_block_message();
std::string anchor_note(std::string_view anchor);
std::string misaligned_message(const PlanSubject& s, std::size_t line);
std::string insertion_past_end_message(const PlanSubject& s, std::size_t after, std::size_t line_count);
std::string anchor_missing_message(const PlanSubject& s, std::string_view anchor);
// What to do when several places match (an example line for the format's way of naming one).
std::string next_for_ambiguity(PatchFormat format, std::size_t example_line);
// The matcher found several places; `hint`: the stated line (or the one taken for it).
std::string ambiguous_block_message(const PlanSubject& s, const MatchError& err, const PatchBlock& b,
                                    std::optional<std::size_t> hint);

// ---- similarity ----
// What a similarity search covered: "in the file", or "within 40 lines of line 12".
std::string similarity_scope(std::optional<std::size_t> hint, std::size_t window);
std::string similarity_budget_note();
// The search stopped on its budget: no place qualified (a note), or the best so far might not be best.
std::string similarity_stopped_note(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                    double threshold);
std::string similarity_stopped_message(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                       std::size_t k);
std::string not_similar_note(const SimilarityRanking& found, std::string_view scope, std::size_t k, double threshold);
// The most similar place, lines [first, last], where the block's lines cannot be laid one by one
// onto the file's (`why`): nothing applied. `left_out`: file lines the block must show to be
// placed (lines_words), when that is the reason.
std::string similar_but_unaligned_message(const PlanSubject& s, std::size_t first, std::size_t last, double similarity,
                                          std::string_view why, std::string_view left_out = {});
std::string similar_places_message(const PlanSubject& s, const SimilarityRanking& found, std::string_view scope,
                                   std::size_t k, double margin);

// ---- assembly ----
struct PlacedLines {
    std::size_t index = 0;       // PatchBlock::index
    std::size_t patch_line = 0;  // PatchBlock::patch_line
    std::size_t first_line = 0;
    std::size_t last_line = 0;
};
std::string overlap_message(const PlanSubject& s, const PlacedLines& first, const PlacedLines& second);
std::string splice_failed_message(std::string_view why);

// ---- create, remove ----
std::string already_created_message(const PlanSubject& s);
std::string already_exists_message(const PlanSubject& s, std::size_t size);
std::string missing_for_delete_message(const PlanSubject& s);
// The lines a deletion shows (`expected`) are not the file's (`actual`), both LF text.
std::string deleted_lines_differ_message(const PlanSubject& s, const std::string& expected, const std::string& actual);

// ---- the file's error ----
// The whole story for the model, from each failing block's reason (sorted by index).
std::string plan_failure_message(const PlanSubject& s, const std::vector<BlockFailure>& failures,
                                 std::size_t block_count);
// A failure of the whole file: its reason and that nothing was changed.
std::string whole_failure_message(std::string_view reason);

}  // namespace text
