// find_bytes: the one substring search of the text engine, linear in the haystack. Its own file so
// that no module falls back to a quadratic search.
#pragma once

#include <cstddef>
#include <string_view>

namespace text {

// Offset of the first occurrence of `needle` in `hay` at or after `from`; npos when none.
// An empty needle is found at `from` (when from <= hay.size()).
std::size_t find_bytes(std::string_view hay, std::string_view needle, std::size_t from = 0);

}  // namespace text
