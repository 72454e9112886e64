// Likeness of lines by shared byte bigrams: cheap enough to score every line of a large file.
#include "text/match/line_likeness.hpp"

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <memory>
#include <vector>

#include "text/bytes/lines.hpp"
#include "text/unicode/unicode_fold.hpp"

namespace text {

namespace {

// The bigram of bytes s[i], s[i + 1] as one number.
std::uint16_t bigram(std::string_view s, std::size_t i) {
    return static_cast<std::uint16_t>((static_cast<unsigned char>(s[i]) << 8) | static_cast<unsigned char>(s[i + 1]));
}

// Dice coefficient of the byte bigrams of two strings (their first 256 bytes).
double dice(std::string_view a, std::string_view b) {
    a = a.substr(0, 256);
    b = b.substr(0, 256);
    if (a.size() < 2 || b.size() < 2) return a == b ? 1.0 : 0.0;
    auto grams = [](std::string_view s) {
        std::vector<std::uint16_t> g;
        g.reserve(s.size());
        for (std::size_t i = 0; i + 1 < s.size(); ++i) {
            g.push_back(bigram(s, i));
        }
        std::sort(g.begin(), g.end());
        return g;
    };
    const auto x = grams(a);
    const auto y = grams(b);
    std::size_t i = 0, j = 0, common = 0;
    while (i < x.size() && j < y.size()) {
        if (x[i] == y[j]) {
            ++common;
            ++i;
            ++j;
        } else if (x[i] < y[j]) {
            ++i;
        } else {
            ++j;
        }
    }
    return 2.0 * static_cast<double>(common) / static_cast<double>(x.size() + y.size());
}

}  // namespace

double line_likeness(std::string_view file_line, std::string_view needle_line) {
    if (file_line == needle_line) return 1.0;
    if (rtrim_blanks(file_line) == rtrim_blanks(needle_line)) return 0.98;
    const std::string_view a = trim_blanks(file_line);
    const std::string_view b = trim_blanks(needle_line);
    if (a == b) return 0.96;
    if (a.size() < 512 && b.size() < 512 && fold_unicode(a) == fold_unicode(b)) return 0.94;
    return 0.9 * dice(a, b);
}

// The one line of the file most like `probe` by shared bigrams: a single linear pass.
std::optional<std::size_t> most_similar_line(std::string_view lf, std::string_view probe) {
    probe = probe.substr(0, 512);
    if (probe.size() < 2) return std::nullopt;
    auto set = std::make_unique<std::bitset<65536>>();
    std::size_t distinct = 0;
    for (std::size_t i = 0; i + 1 < probe.size(); ++i) {
        const std::uint16_t g = bigram(probe, i);
        if (!set->test(g)) {
            set->set(g);
            ++distinct;
        }
    }
    double best = 0.5;  // below this nothing is "like" the probe
    std::optional<std::size_t> best_pos;
    LineCursor cursor{lf, 0};
    std::string_view line;
    std::size_t at = 0;
    while (cursor.next(line)) {
        const std::string_view t = trim_blanks(line).substr(0, 512);
        if (t.size() >= 2) {
            std::size_t shared = 0;
            for (std::size_t i = 0; i + 1 < t.size(); ++i) {
                if (set->test(bigram(t, i))) ++shared;
            }
            const double score =
                static_cast<double>(std::min(shared, distinct)) / static_cast<double>(std::max(distinct, t.size() - 1));
            if (score > best) {
                best = score;
                best_pos = at;
            }
        }
        at = cursor.position();
    }
    return best_pos;
}

}  // namespace text
