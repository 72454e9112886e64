// merge3: each side's edit script over base as hunks, grouped where they overlap, each group
// taken from the one side that changed it, or a conflict.
#include "text/diff/merge3.hpp"

#include <algorithm>

#include "text/bytes/file_facts.hpp"
#include "text/diff/line_edit_script.hpp"

namespace text {

namespace {

std::vector<std::string_view> lines_of(std::string_view bytes) {
    std::vector<std::string_view> lines;
    for_each_line(bytes, [&](const LineSpan& s) {
        lines.push_back(bytes.substr(s.begin, s.end - s.begin + s.terminator_size));
        return true;
    });
    return lines;
}

// Base lines [base_begin, base_end) replaced by the side's lines [side_begin, side_end).
struct Hunk {
    std::size_t base_begin = 0, base_end = 0;
    std::size_t side_begin = 0, side_end = 0;
    int side = 0;  // 0 ours, 1 theirs
};

std::vector<Hunk> hunks_of(const std::vector<LineEdit>& script, int side) {
    std::vector<Hunk> hunks;
    std::size_t i = 0;
    while (i < script.size()) {
        if (script[i].op == LineOp::common) {
            ++i;
            continue;
        }
        Hunk h;
        h.side = side;
        h.base_begin = script[i].old_index;
        h.side_begin = script[i].new_index;
        h.base_end = h.base_begin;
        h.side_end = h.side_begin;
        for (; i < script.size() && script[i].op != LineOp::common; ++i) {
            if (script[i].op == LineOp::remove)
                h.base_end = script[i].old_index + 1;
            else
                h.side_end = script[i].new_index + 1;
        }
        hunks.push_back(h);
    }
    return hunks;
}

// What an insertion at the edge of the other side's changed lines is: a conflict (the merge's
// rule), or placed on its own side of them (only to compare alignments, see merge3).
enum class Touching { conflict, ordered };

// Do the base ranges [a0, a1) and [b0, b1) collide? Overlapping lines do, and so does an insertion
// (an empty range) inside a range, or at the same place as another insertion; an insertion at
// the edge of a range does when `touching` says so.
bool collide(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, Touching touching) {
    if (a0 == a1 && b0 == b1) return a0 == b0;
    if (a0 == a1) return touching == Touching::conflict ? b0 <= a0 && a0 <= b1 : b0 < a0 && a0 < b1;
    if (b0 == b1) return touching == Touching::conflict ? a0 <= b0 && b0 <= a1 : a0 < b0 && b0 < a1;
    return std::max(a0, b0) < std::min(a1, b1);
}

std::string join(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end) {
    std::string out;
    for (std::size_t i = begin; i < end; ++i) out += lines[i];
    return out;
}

// The side's text over base [g0, g1) with its hunks in `group` applied.
std::string side_text(const std::vector<std::string_view>& base, const std::vector<std::string_view>& side,
                      const std::vector<Hunk>& group, int which, std::size_t g0, std::size_t g1) {
    std::string out;
    std::size_t at = g0;
    for (const Hunk& h : group) {
        if (h.side != which) continue;
        out += join(base, at, h.base_begin);
        out += join(side, h.side_begin, h.side_end);
        at = h.base_end;
    }
    out += join(base, at, g1);
    return out;
}

// One merge of line sequences: `merged` holds views of the inputs' lines.
struct LineMerge {
    bool clean = true;
    std::vector<std::string_view> merged;
    std::vector<MergeConflict> conflicts;
    std::size_t ours_hunks = 0, theirs_hunks = 0;
};

LineMerge merge_lines(const std::vector<std::string_view>& base, const std::vector<std::string_view>& ours,
                      const std::vector<std::string_view>& theirs, Touching touching) {
    LineMerge result;
    std::vector<Hunk> hunks = hunks_of(diff_lines(base, ours), 0);
    result.ours_hunks = hunks.size();
    {
        const auto other = hunks_of(diff_lines(base, theirs), 1);
        result.theirs_hunks = other.size();
        hunks.insert(hunks.end(), other.begin(), other.end());
    }
    std::stable_sort(hunks.begin(), hunks.end(), [](const Hunk& a, const Hunk& b) {
        return a.base_begin != b.base_begin ? a.base_begin < b.base_begin : a.base_end < b.base_end;
    });

    const auto take = [&](const std::vector<std::string_view>& from, std::size_t begin, std::size_t end) {
        result.merged.insert(result.merged.end(), from.begin() + static_cast<std::ptrdiff_t>(begin),
                             from.begin() + static_cast<std::ptrdiff_t>(end));
    };
    const auto take_side = [&](const std::vector<std::string_view>& side, const std::vector<Hunk>& group, int which,
                               std::size_t g0, std::size_t g1) {
        std::size_t at = g0;
        for (const Hunk& h : group) {
            if (h.side != which) continue;
            take(base, at, h.base_begin);
            take(side, h.side_begin, h.side_end);
            at = h.base_end;
        }
        take(base, at, g1);
    };
    std::size_t at = 0;               // base lines before `at` are emitted
    std::ptrdiff_t theirs_shift = 0;  // theirs' line of a base line: base + shift (before the group)
    std::size_t i = 0;
    while (i < hunks.size()) {
        std::vector<Hunk> group{hunks[i]};
        std::size_t g0 = hunks[i].base_begin, g1 = hunks[i].base_end;
        for (++i; i < hunks.size() && collide(g0, g1, hunks[i].base_begin, hunks[i].base_end, touching); ++i) {
            group.push_back(hunks[i]);
            g0 = std::min(g0, hunks[i].base_begin);
            g1 = std::max(g1, hunks[i].base_end);
        }
        take(base, at, g0);
        at = g1;
        const bool has_ours = std::any_of(group.begin(), group.end(), [](const Hunk& h) { return h.side == 0; });
        const bool has_theirs = std::any_of(group.begin(), group.end(), [](const Hunk& h) { return h.side == 1; });
        const std::size_t theirs_first = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(g0) + theirs_shift) + 1;
        for (const Hunk& h : group)
            if (h.side == 1)
                theirs_shift += static_cast<std::ptrdiff_t>(h.side_end - h.side_begin) -
                                static_cast<std::ptrdiff_t>(h.base_end - h.base_begin);
        if (!has_theirs) {
            take_side(ours, group, 0, g0, g1);
            continue;
        }
        const std::string theirs_part = side_text(base, theirs, group, 1, g0, g1);
        if (!has_ours) {
            take_side(theirs, group, 1, g0, g1);
            continue;
        }
        std::string ours_part = side_text(base, ours, group, 0, g0, g1);
        if (ours_part == theirs_part) {
            take_side(ours, group, 0, g0, g1);
            continue;
        }
        result.clean = false;
        result.conflicts.push_back(
            {g0 + 1, g1 - g0, theirs_first, join(base, g0, g1), std::move(ours_part), theirs_part});
    }
    if (result.clean) take(base, at, base.size());
    return result;
}

// The lines that base, ours and theirs do not all share at their start and end, as one conflict:
// for a merge whose result depends on how repeated lines are aligned.
MergeConflict unaligned_region(const std::vector<std::string_view>& base, const std::vector<std::string_view>& ours,
                               const std::vector<std::string_view>& theirs) {
    const std::size_t shortest = std::min({base.size(), ours.size(), theirs.size()});
    std::size_t prefix = 0;
    while (prefix < shortest && base[prefix] == ours[prefix] && base[prefix] == theirs[prefix]) ++prefix;
    std::size_t suffix = 0;
    while (prefix + suffix < shortest && base[base.size() - 1 - suffix] == ours[ours.size() - 1 - suffix] &&
           base[base.size() - 1 - suffix] == theirs[theirs.size() - 1 - suffix])
        ++suffix;
    return {prefix + 1,
            base.size() - prefix - suffix,
            prefix + 1,
            join(base, prefix, base.size() - suffix),
            join(ours, prefix, ours.size() - suffix),
            join(theirs, prefix, theirs.size() - suffix),
            true};
}

}  // namespace

MergeResult merge3(std::string_view base_bytes, std::string_view ours_bytes, std::string_view theirs_bytes) {
    const auto base = lines_of(base_bytes);
    const auto ours = lines_of(ours_bytes);
    const auto theirs = lines_of(theirs_bytes);
    LineMerge forward = merge_lines(base, ours, theirs, Touching::conflict);
    MergeResult result;
    result.ours_hunks = forward.ours_hunks;
    result.theirs_hunks = forward.theirs_hunks;
    if (!forward.clean) {
        result.clean = false;
        result.conflicts = std::move(forward.conflicts);
        return result;
    }
    // Repeated lines can be aligned in more than one shortest way, and the alignment decides where
    // one side's change lands relative to the other's. The diff prefers the earliest alignment;
    // merged again back to front it prefers the latest. A result that differs between the two is
    // a guess: a conflict, never a success. (On real merges, where both alignments merged and
    // differed, the first was the merge commit's bytes about as often as the second.) Back to
    // front, an insertion at the edge of the other side's lines is placed on its side of them:
    // blank lines around an insertion slide, and a slide that only makes it touch the other change
    // changes nothing.
    if (forward.ours_hunks > 0 && forward.theirs_hunks > 0) {
        const auto reversed = [](std::vector<std::string_view> lines) {
            std::reverse(lines.begin(), lines.end());
            return lines;
        };
        LineMerge backward = merge_lines(reversed(base), reversed(ours), reversed(theirs), Touching::ordered);
        std::reverse(backward.merged.begin(), backward.merged.end());
        if (!backward.clean || backward.merged != forward.merged) {
            result.clean = false;
            result.conflicts.push_back(unaligned_region(base, ours, theirs));
            return result;
        }
    }
    for (const auto line : forward.merged) result.merged += line;
    return result;
}

}  // namespace text
