// Similarity (Levenshtein) matching for apply_diff blocks no tier found, asked for with a threshold
// below 1. The one quadratic-cost search, kept behind a linear prefilter, a band and a
// work budget.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace text {

// The Levenshtein distance of a and b when it is at most `limit`, else limit + 1. Works in a band of
// width 2*limit+1; adds the cells it computed to *cells.
std::size_t bounded_levenshtein(std::string_view a, std::string_view b, std::size_t limit, std::size_t* cells);

// 1 - distance / max(|a|, |b|); 1 when both are empty.
double similarity_of(std::size_t distance, std::size_t a_size, std::size_t b_size);

struct SimilarWindow {
    std::size_t first_line = 0;  // 1-based
    double similarity = 0.0;
};

// Where a block is most like the file, and how sure that is. Only windows that could reach
// `threshold - margin` (or `best - margin` once a best at or above the threshold is known) are
// scored exactly; every window that could score higher than what is reported was scored, unless
// `stopped`.
struct SimilarityRanking {
    std::optional<SimilarWindow> best;       // the most similar window scored (the earliest of equals)
    std::optional<SimilarWindow> runner_up;  // the most similar scored window that shares no line with best
    // best, then every other window within `margin` of it that shares no line with it, or that
    // scores exactly as much (most similar first); several means "not clearly ahead".
    std::vector<SimilarWindow> contenders;
    std::size_t places = 0;       // windows in the range
    std::size_t candidates = 0;   // windows the prefilter could not rule out
    std::size_t windows = 0;      // windows scored exactly
    std::size_t cells = 0;        // Levenshtein cells computed
    bool stopped = false;         // the budget ran out while a window not scored could still matter
    double unscored_bound = 0.0;  // when stopped: the highest similarity a window not scored could have
};

// Ranks every run of `needle_lines` consecutive `lines` (the file's lines, without terminators)
// starting in [first, last] by similarity to `needle` (lines joined by "\n", no final newline).
// Linear prefilter: a q-gram count, kept as the window slides, bounds each window's distance from
// below (an edit destroys at most q of the needle's q-grams) and so its similarity from above;
// windows are then scored exactly, highest bound first, until no window left could be the best or
// come within `margin` of it, or until `budget` cells of work are spent.
SimilarityRanking rank_similar_windows(const std::vector<std::string_view>& lines, std::string_view needle,
                                       std::size_t needle_lines, std::size_t first, std::size_t last, double threshold,
                                       double margin, std::size_t budget);

}  // namespace text
