// Locating by similarity: when no matching tier finds a block, the run of the file's lines most
// like its old lines (Levenshtein), taken only when clearly ahead of every other place.
#include <algorithm>

#include "text/bytes/byte_scan.hpp"
#include "text/plan/line_alignment.hpp"
#include "text/match/line_number_prefixes.hpp"
#include "text/match/match_messages.hpp"
#include "text/plan/patch_similarity.hpp"
#include "text/plan/plan_locate.hpp"

namespace text {

namespace {
constexpr std::size_t kMaxNeedle = 64 * 1024;
constexpr std::size_t kAlignMargin = 2;     // lines on each side of the window the alignment may use
constexpr double kMinLineSimilarity = 0.5;  // an old line less like every file line is placed nowhere
}  // namespace

SimilarityOutcome locate_by_similarity(PlanContext& ctx, const BlockAt& at, std::optional<std::size_t> hint,
                                       SimilarityBudget& budget) {
    const PlanOptions& options = ctx.options;
    SimilarityOutcome out;
    const double threshold = std::clamp(options.fuzzy_threshold, 0.5, 1.0);
    std::string old_text = at.block.old_text;
    std::string new_text = at.block.new_text;
    if (auto stripped = strip_line_number_prefixes(old_text)) {
        old_text = std::move(stripped->text);
        if (auto new_stripped = strip_line_number_prefixes(new_text)) new_text = std::move(new_stripped->text);
    }
    const std::size_t k = count_byte(old_text, '\n');
    const std::string_view needle = std::string_view(old_text).substr(0, old_text.size() - 1);
    if (k == 0 || needle.size() > kMaxNeedle) return out;
    const std::size_t count = ctx.file.line_count();
    if (budget.lines.size() != count) {
        budget.lines.reserve(count);
        for (std::size_t n = 1; n <= count; ++n) budget.lines.push_back(ctx.file.line(n));
    }
    if (budget.spent >= options.fuzzy_budget) {
        out.note = similarity_budget_note();
        return out;
    }
    // Without a stated line the whole file is ranked; with one, the lines around it. Either way a
    // place is taken only when it is the most similar, at least as similar as the threshold, and
    // clearly (fuzzy_margin) ahead of every other place; a search the budget cut short takes nothing.
    const std::size_t window = options.fuzzy_window;
    std::size_t first = 1, last = count;
    if (hint) {
        first = *hint > window ? *hint - window : 1;
        last = *hint + window;
    }
    const double margin = std::clamp(options.fuzzy_margin, 0.0, 0.5);
    const SimilarityRanking found = rank_similar_windows(budget.lines, needle, k, first, last, threshold, margin,
                                                         options.fuzzy_budget - budget.spent);
    budget.spent += found.cells;
    const std::string scope = similarity_scope(hint, window);
    const bool qualifies = found.best && found.best->similarity + 1e-9 >= threshold;
    if (found.stopped) {
        if (!qualifies) {
            out.note = similarity_stopped_note(ctx.subject, found, scope, threshold);
        } else {
            out.failure =
                Unplaced{BlockFailureKind::ambiguous, similarity_stopped_message(ctx.subject, found, scope, k)};
        }
        return out;
    }
    if (!qualifies) {
        out.note = not_similar_note(found, scope, k, threshold);
        return out;
    }
    const SimilarWindow* chosen = found.contenders.size() == 1 ? &found.contenders.front() : nullptr;
    if (!chosen && hint) {
        // Several places about as similar are a tie that distance to the stated line does not
        // break (the nearer one may be the worse): only one starting exactly at it is taken.
        for (const SimilarWindow& w : found.contenders) {
            if (w.first_line != *hint) continue;
            if (chosen) {
                chosen = nullptr;
                break;
            }
            chosen = &w;
        }
    }
    if (!chosen) {
        out.failure =
            Unplaced{BlockFailureKind::ambiguous, similar_places_message(ctx.subject, found, scope, k, margin)};
        return out;
    }
    // The window only says where: the block is laid onto the lines there one by one, so that file
    // lines it does not mention stay and its changes land on the lines they were made to.
    const std::size_t start = chosen->first_line;
    const std::size_t end_line = start + k - 1;
    const std::size_t from = start > kAlignMargin ? start - kAlignMargin : 1;
    const std::size_t to = std::min(count, end_line + kAlignMargin);
    const std::vector<std::string_view> old_lines = block_lines(old_text);
    const std::vector<std::string_view> new_lines = block_lines(new_text);
    const auto [one, other] = similarity_alignments(ctx.file, old_lines, from, to, kMinLineSimilarity);
    auto change = apply_alignment(ctx.file, old_lines, new_lines, one, at.block.ops);
    if (!change) {
        const AlignmentFailure& why = change.error();
        const std::string left_out =
            why.left_out_first ? lines_words(why.left_out_first, why.left_out_last) : std::string();
        out.failure = Unplaced{
            BlockFailureKind::not_found,
            similar_but_unaligned_message(ctx.subject, start, end_line, chosen->similarity, why.why, left_out)};
        return out;
    }
    if (other.file_line != one.file_line) {
        auto second = apply_alignment(ctx.file, old_lines, new_lines, other, at.block.ops);
        if (!second || !same_change(ctx.file, *change, *second)) {
            out.failure = Unplaced{BlockFailureKind::ambiguous,
                                   similar_but_unaligned_message(ctx.subject, start, end_line, chosen->similarity,
                                                                 "its lines fit the file's there in two ways that "
                                                                 "change different lines")};
            return out;
        }
    }
    Located l;
    l.block = at.position;
    l.begin = ctx.file.line_begin(change->first_line);
    l.end = ctx.file.line_end(change->last_line);
    l.at_eof = l.end >= ctx.file.bytes().size();
    l.text = std::move(change->text);
    l.first_line = change->first_line;
    l.last_line = change->last_line;
    l.match = BlockMatch::fuzzy;
    l.similarity = chosen->similarity;
    out.place = std::move(l);
    return out;
}

}  // namespace text
