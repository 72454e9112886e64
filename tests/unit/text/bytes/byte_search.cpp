// Unit tests of find_bytes, checked against std::string_view::find on many lengths and alignments,
// and bounded on a pathological needle.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include "random_text.hpp"
#include "text/bytes/byte_search.hpp"

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

TEST_CASE("find_bytes on lines that start and end alike, with needles cut anywhere from them") {
    // The filter looks at the needle's rarest bytes (digits, capitals, bytes of other scripts, NUL),
    // wherever they are; every answer must still be std::string_view::find's.
    std::string hay;
    for (int i = 0; i < 400; ++i)
        hay += "    item_" + std::to_string(1000 + i) + " = compute(\"alpha\", " + std::to_string(i % 7) +
               "); // \xc3\xa9t\xc3\xa9" + (i % 50 == 0 ? std::string("\0X", 2) : std::string()) + "\n";
    std::mt19937 rng(7);
    for (int round = 0; round < 2000; ++round) {
        const std::size_t at = rng() % hay.size();
        const std::size_t m = 1 + rng() % (round % 2 ? 40 : 200);  // some past the 64 bytes weighed
        std::string needle = hay.substr(at, m);
        if (round % 3 == 0 && !needle.empty()) needle[rng() % needle.size()] ^= 0x01;  // mostly absent
        const std::size_t from = round % 5 == 0 ? rng() % hay.size() : 0;
        INFO("needle=" << needle << " from=" << from);
        CHECK(text::find_bytes(hay, needle, from) == reference_find(hay, needle, from));
    }
    CHECK(text::find_bytes(hay, "item_1399 = compute(\"alpha\"") == hay.find("item_1399 = compute(\"alpha\""));
    CHECK(text::find_bytes(hay, "    ") == 0);
    CHECK(text::find_bytes(hay, std::string("\0X\n", 3)) == hay.find(std::string("\0X\n", 3)));
}
