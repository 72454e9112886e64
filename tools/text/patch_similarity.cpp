// Banded Levenshtein distance and the window search built on it. Work per window is bounded by
// the band (the most edits the threshold allows) and the search by a budget of cells.
#include "tools/text/patch_similarity.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace text {

std::size_t bounded_levenshtein(std::string_view a, std::string_view b, std::size_t limit, std::size_t* cells) {
    const std::size_t n = a.size(), m = b.size();
    const std::size_t inf = limit + 1;
    if ((n > m ? n - m : m - n) > limit) return inf;
    std::vector<std::size_t> prev(m + 2, inf), cur(m + 2, inf);
    for (std::size_t j = 0; j <= m && j <= limit; ++j) prev[j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
        const std::size_t lo = i > limit ? i - limit : 0;
        const std::size_t hi = std::min(m, i + limit);
        std::size_t row_min = inf;
        if (lo == 0) {
            cur[0] = i <= limit ? i : inf;
            row_min = cur[0];
        } else {
            cur[lo - 1] = inf;
        }
        for (std::size_t j = std::max<std::size_t>(lo, 1); j <= hi; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            std::size_t v = prev[j - 1] + cost;
            v = std::min(v, prev[j] + 1);
            v = std::min(v, cur[j - 1] + 1);
            cur[j] = std::min(v, inf);
            row_min = std::min(row_min, cur[j]);
        }
        cur[hi + 1] = inf;
        if (cells) *cells += hi - lo + 1;
        if (row_min > limit) return inf;
        std::swap(prev, cur);
    }
    return std::min(prev[m], inf);
}

double similarity_of(std::size_t distance, std::size_t a_size, std::size_t b_size) {
    const std::size_t longest = std::max(a_size, b_size);
    if (longest == 0) return 1.0;
    return 1.0 - static_cast<double>(distance) / static_cast<double>(longest);
}

SimilaritySearch find_similar_windows(const std::vector<std::string_view>& lines, std::string_view needle,
                                      std::size_t needle_lines, std::size_t first, std::size_t last,
                                      std::size_t center, double threshold, std::size_t budget) {
    SimilaritySearch out;
    if (needle_lines == 0 || lines.size() < needle_lines) return out;
    first = std::max<std::size_t>(first, 1);
    last = std::min(last, lines.size() - needle_lines + 1);
    if (first > last) return out;
    center = std::clamp(center, first, last);
    std::size_t cells = 0;
    std::string window;
    double best = -1.0;
    auto compare = [&](std::size_t start) {
        window.clear();
        for (std::size_t k = 0; k < needle_lines; ++k) {
            if (k) window += '\n';
            window.append(lines[start - 1 + k]);
        }
        const std::size_t longest = std::max(window.size(), needle.size());
        const double allowed = std::floor((1.0 - threshold) * static_cast<double>(longest) + 1e-9);
        const std::size_t limit = allowed > 0 ? static_cast<std::size_t>(allowed) : 0;
        // The band's cells, at most: a window that could not be finished within the budget is not begun.
        const std::size_t cost = window.size() * std::min(2 * limit + 1, needle.size() + 1);
        if (cost > budget || cells > budget - cost) {
            out.stopped = true;
            return;
        }
        const std::size_t d = bounded_levenshtein(window, needle, limit, &cells);
        ++out.windows;
        if (d > limit) return;
        const double s = similarity_of(d, window.size(), needle.size());
        if (s + 1e-12 < threshold) return;
        if (s > best + 1e-12) {
            best = s;
            out.best.clear();
        }
        if (s >= best - 1e-12) out.best.push_back({start, s});
    };
    // Middle-out from center: center, center+1, center-1, center+2, ...
    const std::size_t span = std::max(center - first, last - center);
    for (std::size_t d = 0; d <= span && !out.stopped; ++d) {
        if (center + d <= last) compare(center + d);
        if (d > 0 && center >= first + d && !out.stopped) compare(center - d);
    }
    std::sort(out.best.begin(), out.best.end(),
              [](const SimilarWindow& a, const SimilarWindow& b) { return a.first_line < b.first_line; });
    out.cells = cells;
    return out;
}

}  // namespace text
