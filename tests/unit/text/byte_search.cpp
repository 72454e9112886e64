// Unit tests of find_bytes, checked against std::string_view::find on many lengths and alignments,
// and bounded on a pathological needle.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "random_text.hpp"
#include "text/byte_search.hpp"

namespace {

std::size_t reference_find(std::string_view hay, std::string_view needle, std::size_t from) {
    if (from > hay.size()) return std::string_view::npos;
    return hay.find(needle, from);
}

}  // namespace

TEST_CASE("find_bytes agrees with std::string_view::find") {
    std::mt19937 rng(11);
    for (int round = 0; round < 300; ++round) {
        const std::string hay = test_text::random_text(rng, rng() % 300, "aab\n");
        const std::size_t m = rng() % 12;
        const std::string needle = test_text::random_text(rng, m, "ab\n");
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
