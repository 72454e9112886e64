// find_bytes. A needle's first and last bytes are looked for sixteen places at a time (SSE2) and
// only places where both agree are compared, which runs at memory speed on text. Those compares
// are budgeted: when they cost more than a few times the bytes scanned (a pathological needle and
// haystack), the rest of the search goes to the C library's memmem (two-way, linear), or to
// std::search with Boyer-Moore-Horspool where there is no memmem.
#include "text/byte_search.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__)
#include <string.h>
#define TEXT_HAVE_MEMMEM 1
#endif

namespace text {

namespace {

std::size_t find_linear(std::string_view hay, std::string_view needle, std::size_t from) {
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

#if defined(__SSE2__)
bool same8(const char* a, const char* b) {
    std::uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    return x == y;
}
#endif

}  // namespace

std::size_t find_bytes(std::string_view hay, std::string_view needle, std::size_t from) {
    if (from > hay.size()) return std::string_view::npos;
    if (needle.empty()) return from;
    const std::size_t m = needle.size();
    if (m > hay.size() - from) return std::string_view::npos;
    if (m == 1) {
        const void* hit = std::memchr(hay.data() + from, needle[0], hay.size() - from);
        return hit ? static_cast<std::size_t>(static_cast<const char*>(hit) - hay.data()) : std::string_view::npos;
    }
#if defined(__SSE2__)
    constexpr std::size_t kVectorBytes = 16;
    const char* h = hay.data();
    const __m128i first = _mm_set1_epi8(needle.front());
    const __m128i last = _mm_set1_epi8(needle.back());
    const std::size_t budget_base = 4096;
    std::size_t compared = 0;  // bytes compared at candidate places
    std::size_t i = from;
    // Place i is a candidate when h[i] and h[i + m - 1] match; both blocks must lie inside hay.
    while (i + m - 1 + kVectorBytes <= hay.size()) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + m - 1));
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last))));
        while (mask) {
            const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(mask));
            // Lines of a file often share their first and last bytes: eight bytes after the
            // first reject most such places before the full compare.
            if ((m < 10 || same8(h + at + 1, needle.data() + 1)) &&
                std::memcmp(h + at + 1, needle.data() + 1, m - 2) == 0)
                return at;
            compared += m;
            mask &= mask - 1;
        }
        i += kVectorBytes;
        if (compared > budget_base + 4 * (i - from)) break;  // pathological: finish in linear time
    }
    return find_linear(hay, needle, i);
#else
    return find_linear(hay, needle, from);
#endif
}

}  // namespace text
