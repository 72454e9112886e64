// The edit script between two sequences of lines, at bounded cost: dtl inside pieces small enough
// for it, pieces split by unique common lines. The unified diff prints what this computes.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace text {

enum class LineOp : unsigned char { common, remove, add };

struct LineEdit {
    LineOp op = LineOp::common;
    std::size_t old_index = 0;  // common/remove: the old line; add: the old line it goes before
    std::size_t new_index = 0;  // common/add: the new line; remove: the new line it went before
};

// A shortest edit script where affordable (Wu/Myers O(NP) through dtl), in order; within a run of
// changes every removal comes before the additions. When a piece is too large for dtl and has no
// unique common line to split on, it is written as removed and added whole (never wrong, only
// longer than needed).
std::vector<LineEdit> diff_lines(std::span<const std::string_view> a, std::span<const std::string_view> b);

}  // namespace text
