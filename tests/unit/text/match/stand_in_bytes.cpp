// Unit tests of U+FFFD stand-ins: each matches one byte that is not UTF-8, and the bytes come back
// in new_string.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/bytes/file_facts.hpp"
#include "text/match/stand_in_bytes.hpp"

TEST_CASE("find_with_stand_ins: each U+FFFD is one invalid byte, places do not overlap") {
    const std::string lf = "a\xE9z a\xE8z aez";
    CHECK(text::has_stand_ins("a\uFFFDz"));
    CHECK_FALSE(text::has_stand_ins("aez"));
    const auto places = text::find_with_stand_ins(lf, "a\uFFFDz", text::invalid_utf8_bytes(lf));
    REQUIRE(places.size() == 2);
    CHECK(places[0].begin == 0);
    CHECK(places[0].end == 3);
    CHECK(places[0].bytes == "\xE9");
    CHECK(places[1].bytes == "\xE8");
    // Only stand-ins, no literal text.
    CHECK(text::find_with_stand_ins(lf, "\uFFFD", text::invalid_utf8_bytes(lf)).size() == 2);
    CHECK(text::find_with_stand_ins("abc", "a\uFFFD", {}).empty());
}

TEST_CASE("restore_invalid_bytes: in order when counts agree, else from the shared start and end") {
    CHECK(text::restore_invalid_bytes("a\uFFFDb", "A\uFFFDB", "\xE9") ==
          "A\xE9"
          "B");
    // new_string adds a U+FFFD of its own after the shared start: that one stays.
    CHECK(text::restore_invalid_bytes("x\uFFFD", "x\uFFFD \uFFFD", "\xE9") == "x\xE9 \uFFFD");
}
