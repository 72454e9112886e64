// The byte-level helpers under the text engine: scans, substring search, large buffers. Each is
// checked against a plain reference on many lengths and alignments, so the vector paths, their
// block boundaries and the tails are all exercised.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "text/byte_buffer.hpp"
#include "text/byte_scan.hpp"
#include "text/byte_search.hpp"

namespace {

std::size_t reference_find(std::string_view hay, std::string_view needle, std::size_t from) {
    if (from > hay.size()) return std::string_view::npos;
    return hay.find(needle, from);
}

std::string random_text(std::mt19937& rng, std::size_t n, const char* alphabet) {
    const std::size_t k = std::char_traits<char>::length(alphabet);
    std::string s(n, ' ');
    for (char& c : s) c = alphabet[rng() % k];
    return s;
}

}  // namespace

TEST_CASE("count_byte and census agree with a plain count at every length and offset") {
    std::mt19937 rng(7);
    const std::string text = random_text(rng, 9000, "ab\n\r\n x\t");
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

TEST_CASE("find_bytes agrees with std::string_view::find") {
    std::mt19937 rng(11);
    for (int round = 0; round < 300; ++round) {
        const std::string hay = random_text(rng, rng() % 300, "aab\n");
        const std::size_t m = rng() % 12;
        const std::string needle = random_text(rng, m, "ab\n");
        for (std::size_t from : {std::size_t{0}, std::size_t{1}, hay.size() / 3, hay.size(), hay.size() + 1}) {
            INFO("hay=" << hay << " needle=" << needle << " from=" << from);
            CHECK(text::find_bytes(hay, needle, from) == reference_find(hay, needle, from));
        }
    }
}

TEST_CASE("find_bytes: a match at the very end, and needles longer than the block") {
    std::string hay(1000, 'x');
    const std::string needle = "0123456789abcdefghij0123456789";
    hay += needle;
    CHECK(text::find_bytes(hay, needle) == 1000);
    CHECK(text::find_bytes(hay, needle, 1001) == std::string_view::npos);
    CHECK(text::find_bytes(hay, "xx0") == 998);
    CHECK(text::find_bytes(hay, "j") == 1019);
    CHECK(text::find_bytes("ab", "abc") == std::string_view::npos);
}

TEST_CASE("find_bytes stays linear on a pathological needle and haystack") {
    // Every place passes the first/last-byte filter and fails late: the budget hands the search
    // to the linear fallback, and the answer is still the right one.
    const std::string needle = std::string(1000, 'a') + "b" + std::string(1000, 'a');
    const std::string hay = std::string(2'000'000, 'a') + needle;
    CHECK(text::find_bytes(hay, needle) == hay.size() - needle.size());
    CHECK(text::find_bytes(hay, needle, hay.size() - needle.size() + 1) == std::string_view::npos);
    const std::string absent = std::string(1000, 'a') + "c" + std::string(1000, 'a');
    CHECK(text::find_bytes(hay, absent) == std::string_view::npos);
}

TEST_CASE("reserve_bytes gives an empty string the room asked for, large or small") {
    for (std::size_t n : {std::size_t{0}, std::size_t{100}, std::size_t{20} << 20}) {
        std::string s;
        text::reserve_bytes(s, n);
        CHECK(s.empty());
        CHECK(s.capacity() >= n);
        s.assign(n, 'q');
        CHECK(static_cast<std::size_t>(std::count(s.begin(), s.end(), 'q')) == n);
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
