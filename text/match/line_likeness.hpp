// How alike two lines are, and which line of a file is most like a probe: the scores the "not
// found" explanation ranks its candidate regions by.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace text {

// 1 for equal lines, slightly less when only trailing blanks, indentation or Unicode forms differ,
// else 0.9 times the Dice coefficient of their byte bigrams (first 256 bytes).
double line_likeness(std::string_view file_line, std::string_view needle_line);

// The offset of the one line of `lf` most like `probe` by shared bigrams (at least half of the
// probe's), in a single linear pass; nullopt when none is.
std::optional<std::size_t> most_similar_line(std::string_view lf, std::string_view probe);

}  // namespace text
