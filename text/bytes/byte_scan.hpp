// Whole-file byte scans (counting newlines, spotting NUL and CR, common starts and ends) at memory
// speed. Every edit of a
// large file runs a few of these; a byte-at-a-time loop made them a third of a 50 MB edit.
#pragma once

#include <cstddef>
#include <string_view>

namespace text {

// How many times `c` occurs in `s`.
std::size_t count_byte(std::string_view s, char c);

// What the file facts need from one pass over the bytes.
struct ByteCensus {
    std::size_t lf = 0;  // every '\n', including those of CRLF pairs
    bool nul = false;    // a '\0' occurs
    bool cr = false;     // a '\r' occurs
};
ByteCensus census(std::string_view s);

// How many bytes a and b share from the start.
std::size_t common_prefix(std::string_view a, std::string_view b);
// How many bytes a and b share at the end, at most `limit`.
std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t limit);

}  // namespace text
