// Banded Levenshtein distance and the window ranking built on it: a linear q-gram prefilter bounds
// every window's similarity, and only the windows that could still matter are scored exactly. Work
// per window is bounded by the band (the most edits that could matter), the search by a budget.
#include "text/plan/patch_similarity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

namespace {

constexpr std::size_t kGram = 3;    // q of the q-gram prefilter
constexpr unsigned kGramBits = 16;  // q-grams are counted in 2^kGramBits hash buckets
constexpr std::size_t kGramBuckets = std::size_t{1} << kGramBits;
constexpr double kEpsilon = 1e-9;

std::size_t gram_bucket(std::string_view line, std::size_t at) {
    const std::uint32_t g = (static_cast<std::uint32_t>(static_cast<unsigned char>(line[at])) << 16) |
                            (static_cast<std::uint32_t>(static_cast<unsigned char>(line[at + 1])) << 8) |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(line[at + 2]));
    return static_cast<std::size_t>((g * 2654435761u) >> (32 - kGramBits));
}

std::size_t grams_of(std::string_view line) { return line.size() >= kGram ? line.size() - kGram + 1 : 0; }

// The most edits `similarity` allows between texts whose longer one has `longest` bytes.
std::size_t edits_allowed(double similarity, std::size_t longest) {
    const double allowed = std::floor((1.0 - similarity) * static_cast<double>(longest) + kEpsilon);
    return allowed > 0 ? static_cast<std::size_t>(allowed) : 0;
}

}  // namespace

SimilarityRanking rank_similar_windows(const std::vector<std::string_view>& lines, std::string_view needle,
                                       std::size_t needle_lines, std::size_t first, std::size_t last, double threshold,
                                       double margin, std::size_t budget) {
    SimilarityRanking out;
    if (needle_lines == 0 || lines.size() < needle_lines) return out;
    first = std::max<std::size_t>(first, 1);
    last = std::min(last, lines.size() - needle_lines + 1);
    if (first > last) return out;
    out.places = last - first + 1;

    // The needle's q-grams (within lines: an edit destroys at most q of them, and one that survives
    // lies within a line of the window too), counted per bucket. Shared buckets over-count shared
    // grams, which only loosens the bound. One table, `unmatched` = needle count - window count, so
    // that each q-gram of the file costs one access to a table that stays in cache.
    std::vector<std::int32_t> unmatched(kGramBuckets, 0);
    std::size_t needle_grams = 0;
    for (std::size_t begin = 0; begin <= needle.size();) {
        std::size_t end = needle.find('\n', begin);
        if (end == std::string_view::npos) end = needle.size();
        const std::string_view line = needle.substr(begin, end - begin);
        for (std::size_t i = 0; i < grams_of(line); ++i) ++unmatched[gram_bucket(line, i)];
        needle_grams += grams_of(line);
        begin = end + 1;
    }
    std::size_t shared = 0;        // sum over buckets of min(window count, needle count)
    std::size_t window_bytes = 0;  // the window's lines joined by "\n"
    auto add_line = [&](std::string_view line) {
        for (std::size_t i = 0; i < grams_of(line); ++i) {
            if (unmatched[gram_bucket(line, i)]-- > 0) ++shared;
        }
        window_bytes += line.size() + 1;
    };
    auto remove_line = [&](std::string_view line) {
        for (std::size_t i = 0; i < grams_of(line); ++i) {
            if (++unmatched[gram_bucket(line, i)] > 0) --shared;
        }
        window_bytes -= line.size() + 1;
    };

    // Each window's upper bound on similarity; those that could reach threshold - margin are kept.
    struct Candidate {
        double bound;
        std::size_t start;
    };
    std::vector<Candidate> candidates;
    for (std::size_t k = 0; k < needle_lines; ++k) add_line(lines[first - 1 + k]);
    for (std::size_t start = first;; ++start) {
        const std::size_t bytes = window_bytes - 1;
        const std::size_t longest = std::max(bytes, needle.size());
        const std::size_t by_length = bytes > needle.size() ? bytes - needle.size() : needle.size() - bytes;
        const std::size_t by_grams = (needle_grams - shared + kGram - 1) / kGram;
        const double bound =
            longest == 0 ? 1.0
                         : 1.0 - static_cast<double>(std::max(by_length, by_grams)) / static_cast<double>(longest);
        if (bound + kEpsilon >= threshold - margin) candidates.push_back({bound, start});
        if (start == last) break;
        remove_line(lines[start - 1]);
        add_line(lines[start - 1 + needle_lines]);
    }
    out.candidates = candidates.size();
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.bound != b.bound ? a.bound > b.bound : a.start < b.start;
    });

    // Exact scores, highest bound first. `best` only rises, so a window scored below the floor of
    // its time is below the final floor too.
    std::vector<SimilarWindow> scored;
    auto best_qualifies = [&] { return out.best && out.best->similarity + kEpsilon >= threshold; };
    auto could_matter = [&](double bound) {
        return best_qualifies() ? bound > out.best->similarity - margin + kEpsilon : bound + kEpsilon >= threshold;
    };
    std::string window;
    for (const Candidate& c : candidates) {
        if (!could_matter(c.bound)) break;
        window.clear();
        for (std::size_t k = 0; k < needle_lines; ++k) {
            if (k) window += '\n';
            window.append(lines[c.start - 1 + k]);
        }
        const double floor = std::max(0.0, (best_qualifies() ? out.best->similarity : threshold) - margin);
        const std::size_t limit = edits_allowed(floor, std::max(window.size(), needle.size()));
        // The band's cells, at most: a window that could not be finished within the budget is not begun.
        const std::size_t cost = window.size() * std::min(2 * limit + 1, needle.size() + 1);
        if (cost > budget || out.cells > budget - cost) {
            out.stopped = true;
            out.unscored_bound = c.bound;
            break;
        }
        const std::size_t d = bounded_levenshtein(window, needle, limit, &out.cells);
        ++out.windows;
        if (d > limit) continue;
        const SimilarWindow w{c.start, similarity_of(d, window.size(), needle.size())};
        scored.push_back(w);
        if (!out.best || w.similarity > out.best->similarity + kEpsilon ||
            (w.similarity + kEpsilon >= out.best->similarity && w.first_line < out.best->first_line)) {
            out.best = w;
        }
    }
    if (!out.best) return out;

    std::sort(scored.begin(), scored.end(), [](const SimilarWindow& a, const SimilarWindow& b) {
        return a.similarity != b.similarity ? a.similarity > b.similarity : a.first_line < b.first_line;
    });
    auto overlap = [&](const SimilarWindow& a, const SimilarWindow& b) {
        const std::size_t gap = a.first_line > b.first_line ? a.first_line - b.first_line : b.first_line - a.first_line;
        return gap < needle_lines;
    };
    const SimilarWindow best = *out.best;
    out.contenders.push_back(best);
    for (const SimilarWindow& w : scored) {
        if (w.first_line == best.first_line) continue;
        if (!out.runner_up && !overlap(w, best)) out.runner_up = w;
        const bool tie = w.similarity + kEpsilon >= best.similarity;
        const bool close = w.similarity > best.similarity - margin + kEpsilon;
        if (!tie && !close) break;  // sorted: nothing after it is closer
        bool apart = true;
        for (const SimilarWindow& c : out.contenders) apart = apart && !overlap(w, c);
        if (tie || apart) out.contenders.push_back(w);
    }
    if (!out.runner_up) {
        for (const SimilarWindow& w : scored) {
            if (!overlap(w, best)) {
                out.runner_up = w;
                break;
            }
        }
    }
    return out;
}

}  // namespace text
