// diff_lines: trims common lines, runs dtl on pieces below a work budget, splits larger pieces on
// lines unique to both sides (patience anchors, longest increasing run), falls back to replace-whole.
#include "text/diff/line_edit_script.hpp"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace text {

namespace {

// dtl's work and memory grow with (N+1)*(M+1) in the worst case (about 24 bytes per unit).
constexpr std::size_t kDtlBudget = 2'000'000;
constexpr int kMaxDepth = 8;

using Lines = std::span<const std::string_view>;

void emit_replace(std::size_t a0, std::size_t n, std::size_t b0, std::size_t m, std::vector<LineEdit>& out) {
    for (std::size_t i = 0; i < n; ++i) out.push_back({LineOp::remove, a0 + i, b0});
    for (std::size_t j = 0; j < m; ++j) out.push_back({LineOp::add, a0 + n, b0 + j});
}

void with_dtl(Lines a, std::size_t a0, Lines b, std::size_t b0, std::vector<LineEdit>& out) {
    std::vector<std::string_view> va(a.begin(), a.end());
    std::vector<std::string_view> vb(b.begin(), b.end());
    dtl::Diff<std::string_view, std::vector<std::string_view>> d(va, vb);
    d.compose();
    const auto ses = d.getSes().getSequence();
    std::size_t i = 0, j = 0;  // next old and new line
    for (const auto& [line, info] : ses) {
        (void)line;
        if (info.type == dtl::SES_COMMON) {
            out.push_back({LineOp::common, a0 + i, b0 + j});
            ++i;
            ++j;
        } else if (info.type == dtl::SES_DELETE) {
            out.push_back({LineOp::remove, a0 + i, b0 + j});
            ++i;
        } else {
            out.push_back({LineOp::add, a0 + i, b0 + j});
            ++j;
        }
    }
}

// Pairs (i, j) of lines that occur exactly once in a and once in b, in a's order, reduced to the
// longest run increasing in j.
std::vector<std::pair<std::size_t, std::size_t>> patience_anchors(Lines a, Lines b) {
    struct Seen {
        std::uint32_t in_a = 0, in_b = 0;
        std::size_t a_index = 0, b_index = 0;
    };
    std::unordered_map<std::string_view, Seen> seen;
    seen.reserve(a.size() + b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        Seen& s = seen[a[i]];
        if (s.in_a < 2) ++s.in_a;
        s.a_index = i;
    }
    for (std::size_t j = 0; j < b.size(); ++j) {
        auto it = seen.find(b[j]);
        if (it == seen.end()) continue;
        Seen& s = it->second;
        if (s.in_b < 2) ++s.in_b;
        s.b_index = j;
    }
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Seen& s = seen[a[i]];
        if (s.in_a == 1 && s.in_b == 1) pairs.emplace_back(i, s.b_index);
    }
    // Longest increasing subsequence in j (patience sorting), O(k log k).
    std::vector<std::size_t> tails;               // index into pairs of the smallest tail per length
    std::vector<std::size_t> prev(pairs.size());  // predecessor in the best run ending here
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), pairs[p].second,
                                          [&](std::size_t t, std::size_t j) { return pairs[t].second < j; });
        const std::size_t at = static_cast<std::size_t>(pos - tails.begin());
        prev[p] = at > 0 ? tails[at - 1] : pairs.size();
        if (pos == tails.end()) {
            tails.push_back(p);
        } else {
            *pos = p;
        }
    }
    std::vector<std::pair<std::size_t, std::size_t>> run;
    if (tails.empty()) return run;
    for (std::size_t p = tails.back(); p != pairs.size(); p = prev[p]) run.push_back(pairs[p]);
    std::reverse(run.begin(), run.end());
    return run;
}

void diff_range(Lines a, std::size_t a0, Lines b, std::size_t b0, int depth, std::vector<LineEdit>& out) {
    // Common head and tail.
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head]) {
        out.push_back({LineOp::common, a0 + head, b0 + head});
        ++head;
    }
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
        ++tail;
    }
    const Lines ma = a.subspan(head, a.size() - head - tail);
    const Lines mb = b.subspan(head, b.size() - head - tail);
    const std::size_t ma0 = a0 + head, mb0 = b0 + head;

    if (ma.empty() || mb.empty() || (ma.size() == 1 && mb.size() == 1)) {  // (1 and 1: two lines that differ)
        emit_replace(ma0, ma.size(), mb0, mb.size(), out);
    } else if ((ma.size() + 1) * (mb.size() + 1) <= kDtlBudget) {
        with_dtl(ma, ma0, mb, mb0, out);
    } else if (depth >= kMaxDepth) {
        emit_replace(ma0, ma.size(), mb0, mb.size(), out);
    } else {
        const auto anchors = patience_anchors(ma, mb);
        if (anchors.empty()) {
            emit_replace(ma0, ma.size(), mb0, mb.size(), out);
        } else {
            std::size_t i = 0, j = 0;
            for (const auto& [ai, bj] : anchors) {
                diff_range(ma.subspan(i, ai - i), ma0 + i, mb.subspan(j, bj - j), mb0 + j, depth + 1, out);
                out.push_back({LineOp::common, ma0 + ai, mb0 + bj});
                i = ai + 1;
                j = bj + 1;
            }
            diff_range(ma.subspan(i), ma0 + i, mb.subspan(j), mb0 + j, depth + 1, out);
        }
    }
    for (std::size_t t = 0; t < tail; ++t) {
        out.push_back({LineOp::common, a0 + a.size() - tail + t, b0 + b.size() - tail + t});
    }
}

}  // namespace

std::vector<LineEdit> diff_lines(std::span<const std::string_view> a, std::span<const std::string_view> b) {
    std::vector<LineEdit> raw;
    raw.reserve(std::max(a.size(), b.size()) + 8);
    diff_range(a, 0, b, 0, 0, raw);

    // In every run of changes, removals first, then additions (as GNU diff prints them).
    std::vector<LineEdit> out;
    out.reserve(raw.size());
    std::size_t r = 0;
    while (r < raw.size()) {
        if (raw[r].op == LineOp::common) {
            out.push_back(raw[r++]);
            continue;
        }
        std::size_t e = r;
        while (e < raw.size() && raw[e].op != LineOp::common) ++e;
        std::size_t removed = 0;
        for (std::size_t x = r; x < e; ++x) {
            if (raw[x].op == LineOp::remove) ++removed;
        }
        const std::size_t first_old = raw[r].old_index;
        const std::size_t first_new = raw[r].new_index;
        std::size_t i = 0, j = 0;
        for (std::size_t x = r; x < e; ++x) {
            if (raw[x].op == LineOp::remove) out.push_back({LineOp::remove, first_old + i++, first_new});
        }
        for (std::size_t x = r; x < e; ++x) {
            if (raw[x].op == LineOp::add) out.push_back({LineOp::add, first_old + removed, first_new + j++});
        }
        r = e;
    }
    return out;
}

}  // namespace text
