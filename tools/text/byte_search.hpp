// find_bytes: the one substring search of the text engine, linear in the haystack (memmem where
// the C library has it). Its own file so that no module falls back to a quadratic search.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string_view>

#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__)
#include <string.h>
#define TEXT_HAVE_MEMMEM 1
#endif

namespace text {

// Offset of the first occurrence of `needle` in `hay` at or after `from`; npos when none.
// An empty needle is found at `from` (when from <= hay.size()).
inline std::size_t find_bytes(std::string_view hay, std::string_view needle, std::size_t from = 0) {
    if (from > hay.size()) return std::string_view::npos;
    if (needle.empty()) return from;
    if (needle.size() > hay.size() - from) return std::string_view::npos;
#ifdef TEXT_HAVE_MEMMEM
    const void* hit = ::memmem(hay.data() + from, hay.size() - from, needle.data(), needle.size());
    if (!hit) return std::string_view::npos;
    return static_cast<std::size_t>(static_cast<const char*>(hit) - hay.data());
#else
    const auto it = std::search(hay.begin() + static_cast<std::ptrdiff_t>(from), hay.end(),
                                std::boyer_moore_horspool_searcher(needle.begin(), needle.end()));
    if (it == hay.end()) return std::string_view::npos;
    return static_cast<std::size_t>(it - hay.begin());
#endif
}

}  // namespace text
