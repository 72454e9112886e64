// Bytes and code points written for a reader: the escapes messages use when characters may look
// alike or are not text at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace text {

// Bytes [from, to) of `s` as printable ASCII, every other byte (and the backslash) escaped as \xHH;
// "…" before when from > 0 and after when `s` goes on past `to`.
std::string escaped_bytes(std::string_view s, std::size_t from, std::size_t to);

// "U+2019": the code point written the Unicode way.
std::string code_point_label(char32_t code_point);

}  // namespace text
