// Unit tests of the whole-file byte scans (count_byte, census, common_prefix/suffix), checked against
// a plain count on many lengths and offsets so that the vector paths, block boundaries and tails run.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "random_text.hpp"
#include "text/bytes/byte_scan.hpp"

TEST_CASE("count_byte and census agree with a plain count at every length and offset") {
    std::mt19937 rng(7);
    const std::string text = test_text::random_text(rng, 9000, "ab\n\r\n x\t");
    for (std::size_t offset = 0; offset < 17; ++offset) {
        for (std::size_t n : {0u, 1u, 15u, 16u, 17u, 255u, 4079u, 4080u, 4081u, 4096u, 8000u}) {
            const std::string_view s = std::string_view(text).substr(offset, n);
            const auto lf = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
            CHECK(text::count_byte(s, '\n') == lf);
            CHECK(text::count_byte(s, 'x') == static_cast<std::size_t>(std::count(s.begin(), s.end(), 'x')));
            const text::ByteCensus c = text::census(s);
            CHECK(c.lf == lf);
            CHECK(c.cr == (s.find('\r') != std::string_view::npos));
            CHECK_FALSE(c.nul);
        }
    }
}

TEST_CASE("census finds a NUL or a CR wherever it is, including the tail") {
    for (std::size_t n : {1u, 16u, 40u, 4080u, 4097u}) {
        for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
            std::string s(n, 'a');
            s[at] = '\0';
            CHECK(text::census(s).nul);
            CHECK_FALSE(text::census(s).cr);
            s[at] = '\r';
            CHECK(text::census(s).cr);
            CHECK_FALSE(text::census(s).nul);
        }
    }
}

TEST_CASE("common_prefix and common_suffix find the first difference from either end") {
    for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 65u, 4095u, 4096u, 4097u, 9000u}) {
        const std::string a(n, 'x');
        CHECK(text::common_prefix(a, a) == n);
        CHECK(text::common_suffix(a, a, n) == n);
        CHECK(text::common_suffix(a, a, n / 2) == n / 2);
        for (std::size_t at : {std::size_t{0}, n / 3, n / 2, n == 0 ? 0 : n - 1}) {
            if (at >= n) continue;
            std::string b = a;
            b[at] = 'y';
            CHECK(text::common_prefix(a, b) == at);
            CHECK(text::common_suffix(a, b, n) == n - 1 - at);
        }
    }
    CHECK(text::common_prefix("abc", "abcdef") == 3);
    CHECK(text::common_suffix("xyz", "wxyz", 10) == 3);
}
