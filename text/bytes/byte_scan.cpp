// Byte scans with SSE2 (every x86-64 CPU has it) and a plain loop elsewhere. Counting uses byte
// lanes that are summed before they can overflow (at most 255 steps per lane).
#include "text/bytes/byte_scan.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace text {

#if defined(__SSE2__)

namespace {

constexpr std::size_t kStep = 16;
constexpr std::size_t kLaneLimit = 255;  // steps before a byte lane could wrap

std::size_t sum_lanes(__m128i lanes) {
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    return static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
           static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
}

}  // namespace

std::size_t count_byte(std::string_view s, char c) {
    const char* p = s.data();
    std::size_t n = s.size();
    std::size_t total = 0;
    const __m128i wanted = _mm_set1_epi8(c);
    while (n >= kStep) {
        const std::size_t steps = std::min(n / kStep, kLaneLimit);
        __m128i lanes = _mm_setzero_si128();
        for (std::size_t i = 0; i < steps; ++i, p += kStep) {
            const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(block, wanted));  // a match is -1
        }
        total += sum_lanes(lanes);
        n -= steps * kStep;
    }
    for (; n > 0; --n, ++p) total += *p == c;
    return total;
}

ByteCensus census(std::string_view s) {
    ByteCensus out;
    const char* p = s.data();
    std::size_t n = s.size();
    const __m128i lf = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r');
    const __m128i zero = _mm_setzero_si128();
    __m128i seen_cr = zero, seen_nul = zero;
    while (n >= kStep) {
        const std::size_t steps = std::min(n / kStep, kLaneLimit);
        __m128i lanes = zero;
        for (std::size_t i = 0; i < steps; ++i, p += kStep) {
            const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(block, lf));
            seen_cr = _mm_or_si128(seen_cr, _mm_cmpeq_epi8(block, cr));
            seen_nul = _mm_or_si128(seen_nul, _mm_cmpeq_epi8(block, zero));
        }
        out.lf += sum_lanes(lanes);
        n -= steps * kStep;
    }
    out.cr = _mm_movemask_epi8(seen_cr) != 0;
    out.nul = _mm_movemask_epi8(seen_nul) != 0;
    for (; n > 0; --n, ++p) {
        out.lf += *p == '\n';
        out.cr = out.cr || *p == '\r';
        out.nul = out.nul || *p == '\0';
    }
    return out;
}

#else

std::size_t count_byte(std::string_view s, char c) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), c));
}

ByteCensus census(std::string_view s) {
    ByteCensus out;
    for (const char b : s) {
        out.lf += b == '\n';
        out.cr = out.cr || b == '\r';
        out.nul = out.nul || b == '\0';
    }
    return out;
}

#endif

// Blocks of 4096, then 64, then 8 bytes, then single bytes: the block holding the first
// difference is never walked a byte at a time.
std::size_t common_prefix(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    if (a.data() == b.data()) return n;  // views of the same bytes (a splice's parts and its source)
    std::size_t i = 0;
    for (const std::size_t block : {std::size_t{4096}, std::size_t{64}, std::size_t{8}})
        while (i + block <= n && std::memcmp(a.data() + i, b.data() + i, block) == 0) i += block;
    while (i < n && a[i] == b[i]) ++i;
    return i;
}

std::size_t common_suffix(std::string_view a, std::string_view b, std::size_t limit) {
    const std::size_t n = std::min({a.size(), b.size(), limit});
    if (a.data() + a.size() == b.data() + b.size()) return n;  // views ending at the same byte
    std::size_t s = 0;
    for (const std::size_t block : {std::size_t{4096}, std::size_t{64}, std::size_t{8}})
        while (s + block <= n &&
               std::memcmp(a.data() + a.size() - s - block, b.data() + b.size() - s - block, block) == 0)
            s += block;
    while (s < n && a[a.size() - 1 - s] == b[b.size() - 1 - s]) ++s;
    return s;
}

}  // namespace text
