// Similarity (Levenshtein) matching for apply_diff blocks no tier found, asked for with a threshold
// below 1. Own file: the one quadratic-cost search, kept behind a band and a work budget.
#pragma once

#include <cstddef>
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

struct SimilaritySearch {
    std::vector<SimilarWindow> best;  // the windows tied at the highest similarity >= threshold
    std::size_t windows = 0;          // windows compared
    std::size_t cells = 0;            // Levenshtein cells computed
    bool stopped = false;             // the budget ran out before every window was compared
};

// Compares `needle` (lines joined by "\n", no final newline) with every run of `needle_lines`
// consecutive `lines` (the file's lines, without terminators) that starts in [first, last], the
// ones nearest `center` first, until `budget` cells of work are spent.
SimilaritySearch find_similar_windows(const std::vector<std::string_view>& lines, std::string_view needle,
                                      std::size_t needle_lines, std::size_t first, std::size_t last,
                                      std::size_t center, double threshold, std::size_t budget);

}  // namespace text
