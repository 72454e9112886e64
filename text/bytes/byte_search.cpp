// find_bytes. Two of the needle's bytes, the rarest by a rough order of how common bytes are in
// code and prose, are looked for sixteen places at a time (SSE2), and only places where both agree
// are compared: on text that runs at memory speed, even where every line starts and ends alike.
// Those compares are budgeted: when they cost more than a few times the bytes scanned (a
// pathological needle and haystack), the rest of the search goes to the C library's memmem
// (two-way, linear), or to std::search with Boyer-Moore-Horspool where there is no memmem.
#include "text/bytes/byte_search.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>

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

// How common a byte is in source code and prose, higher for more common: a rough order, enough to
// keep the filter off spaces, lower-case letters and line ends when the needle has rarer bytes.
constexpr int commonness(unsigned char c) {
    if (c == ' ') return 250;
    if (c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n' || c == 's' || c == 'r') return 200;
    if (c == '\n' || c == '\t' || c == '\r') return 190;
    if (c >= 'a' && c <= 'z') return 160;
    if (c == '(' || c == ')' || c == ';' || c == ',' || c == '.' || c == '=' || c == '_' || c == '"' || c == '\'' ||
        c == '{' || c == '}' || c == ':' || c == '/' || c == '-')
        return 120;
    if (c >= 'A' && c <= 'Z') return 100;
    if (c >= '0' && c <= '9') return 90;
    if (c > ' ' && c < 0x7f) return 70;
    return 30;  // control bytes and the bytes of multi-byte characters
}

// The two offsets of `needle` (m >= 2) to filter on: its rarest byte, and the rarest of the bytes
// that differ from that one (any other offset when all are the same byte). Only the first 64
// bytes are weighed, so a search (called once per match by a replace-all) starts in constant time.
std::pair<std::size_t, std::size_t> rare_offsets(std::string_view needle) {
    const std::size_t weighed = std::min<std::size_t>(needle.size(), 64);
    const auto rank = [&](std::size_t k) { return commonness(static_cast<unsigned char>(needle[k])); };
    std::size_t first = 0;
    for (std::size_t k = 1; k < weighed; ++k)
        if (rank(k) < rank(first)) first = k;
    std::size_t second = first == 0 ? weighed - 1 : 0;
    bool distinct = needle[second] != needle[first];
    for (std::size_t k = 0; k < weighed; ++k) {
        if (k == first) continue;
        const bool differs = needle[k] != needle[first];
        if ((differs && !distinct) || (differs == distinct && rank(k) < rank(second))) {
            second = k;
            distinct = differs;
        }
    }
    return {first, second};
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
    const auto [p, q] = rare_offsets(needle);
    const __m128i at_p = _mm_set1_epi8(needle[p]);
    const __m128i at_q = _mm_set1_epi8(needle[q]);
    const std::size_t budget_base = 4096;
    std::size_t compared = 0;  // bytes compared at candidate places
    std::size_t i = from;
    // Place i is a candidate when h[i + p] and h[i + q] match. Both blocks lie inside hay, and
    // so does the whole needle at each of the sixteen places.
    while (i + m - 1 + kVectorBytes <= hay.size()) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + p));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + q));
        auto mask =
            static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, at_p), _mm_cmpeq_epi8(b, at_q))));
        while (mask) {
            const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(mask));
            // The first eight bytes reject most remaining places before the full compare.
            if ((m < 8 || same8(h + at, needle.data())) && std::memcmp(h + at, needle.data(), m) == 0) return at;
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
