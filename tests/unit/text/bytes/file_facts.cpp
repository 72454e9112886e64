// Unit tests of text/file_facts: BOMs, line-ending styles, final newline, UTF-8 validity,
// binary detection and line splitting.
#include <doctest/doctest.h>

#include "text/bytes/file_facts.hpp"

using namespace text;

TEST_CASE("line endings: lf, crlf, cr, mixed, none") {
    CHECK(analyze("a\nb\n").line_ending == LineEnding::lf);
    CHECK(analyze("a\r\nb\r\n").line_ending == LineEnding::crlf);
    CHECK(analyze("a\rb\r").line_ending == LineEnding::cr);
    CHECK(analyze("a\nb\r\n").line_ending == LineEnding::mixed);
    CHECK(analyze("ab").line_ending == LineEnding::none);
    CHECK(analyze("").line_ending == LineEnding::none);
    const auto f = analyze("a\r\nb\r\nc\n");
    CHECK(f.counts.crlf == 2);
    CHECK(f.counts.lf == 1);
    CHECK(dominant_newline(f) == "\r\n");
    CHECK(dominant_newline(analyze("x")) == "\n");
    CHECK(dominant_newline(analyze("a\rb\rc\n")) == "\r");
}

TEST_CASE("final newline and BOM") {
    CHECK(analyze("a\n").final_newline);
    CHECK_FALSE(analyze("a").final_newline);
    CHECK(analyze("a\r").final_newline);
    const auto bom = analyze("\xEF\xBB\xBFx\n");
    CHECK(bom.bom == Bom::utf8);
    CHECK(bom.bom_size == 3);
    CHECK(bom.line_ending == LineEnding::lf);
    CHECK(analyze(std::string("\xFF\xFE\x00\x00", 4)).bom == Bom::utf32le);
    CHECK(analyze("\xFF\xFEh\0i\0").bom == Bom::utf16le);
    CHECK(analyze("\xFE\xFF").bom == Bom::utf16be);
}

TEST_CASE("UTF-8 validity: overlongs, surrogates and stray bytes are invalid") {
    CHECK(is_valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
    CHECK_FALSE(is_valid_utf8("caf\xE9"));
    CHECK_FALSE(is_valid_utf8("\xC0\xAF"));          // overlong '/'
    CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate
    CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
    CHECK_FALSE(is_valid_utf8("\xE2\x82"));          // truncated
    CHECK(to_valid_utf8("a\xE9z") == "a\xEF\xBF\xBDz");
}

TEST_CASE("binary: a NUL byte") {
    CHECK(analyze(std::string("a\0b", 3)).binary);
    CHECK_FALSE(analyze("plain").binary);
}

TEST_CASE("split_lines: terminators excluded, no phantom last line") {
    const auto lines = split_lines("a\r\nbb\rc\n");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].begin == 0);
    CHECK(lines[0].end == 1);
    CHECK(lines[0].terminator_size == 2);
    CHECK(lines[1].begin == 3);
    CHECK(lines[1].end == 5);
    CHECK(lines[1].terminator_size == 1);
    CHECK(lines[2].terminator_size == 1);
    CHECK(split_lines("").empty());
    CHECK(split_lines("x").size() == 1);
    CHECK(split_lines("\n\n").size() == 2);
}
