// Unit tests of the line helpers: blanks and trims, UTF-8 floor and ceiling, LineCursor, LineTable,
// split_lf_lines.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/bytes/lines.hpp"

namespace {

std::vector<std::string_view> cursor_lines(std::string_view text, std::size_t from = 0) {
    std::vector<std::string_view> out;
    text::LineCursor cursor(text, from);
    std::string_view line;
    while (cursor.next(line)) out.push_back(line);
    return out;
}

using Lines = std::vector<std::string_view>;

}  // namespace

TEST_CASE("trims: spaces and tabs for indentation, blank bytes for line ends") {
    CHECK(text::trim_right(" a \t") == " a");
    CHECK(text::trim_both(" \ta b \t") == "a b");
    CHECK(text::trim_both("\f") == "\f");  // a form feed is not indentation
    CHECK(text::trim_blanks("\v a \f") == "a");
    CHECK(text::rtrim_blanks(" a \f\v") == " a");
    CHECK(text::indentation("\t  x y") == "\t  ");
    CHECK(text::ltrim_indent("\t  x y") == "x y");
    CHECK(text::has_visible_text(" \t\r\n") == false);
    CHECK(text::has_visible_text(" \tx"));
}

TEST_CASE("UTF-8 floor and ceiling stop at character starts, bounds and step limits") {
    const std::string_view s = "a\u00E9\u2192b";  // a, 2 bytes, 3 bytes, b
    CHECK(text::utf8_floor(s, 2) == 1);
    CHECK(text::utf8_floor(s, 5) == 3);
    CHECK(text::utf8_floor(s, 5, 4) == 4);     // not below `lower`
    CHECK(text::utf8_floor(s, 5, 0, 1) == 4);  // at most one step
    CHECK(text::utf8_floor(s, s.size()) == s.size());
    CHECK(text::utf8_ceil(s, 4) == 6);
    CHECK(text::utf8_ceil(s, 4, 1) == 5);
    CHECK(text::utf8_length(s) == 4);
}

TEST_CASE("LineCursor: no extra empty line after a final newline; starts anywhere") {
    CHECK(cursor_lines("a\nb") == Lines{"a", "b"});
    CHECK(cursor_lines("a\n\nb\n") == Lines{"a", "", "b"});
    CHECK(cursor_lines("").empty());
    CHECK(cursor_lines("a\nb\nc", 2) == Lines{"b", "c"});
    text::LineCursor cursor("x\ny");
    std::string_view line;
    REQUIRE(cursor.next(line));
    CHECK(cursor.newline());
    CHECK(cursor.position() == 2);
    REQUIRE(cursor.next(line));
    CHECK_FALSE(cursor.newline());
    CHECK(cursor.position() == 3);
    CHECK_FALSE(cursor.next(line));
}

TEST_CASE("LineTable and split_lf_lines agree on what a line is") {
    const text::LineTable table("ab\n\ncd\n");
    REQUIRE(table.size() == 3);
    CHECK(table.line(0) == "ab");
    CHECK(table.line(1) == "");
    CHECK(table.line(2) == "cd");
    CHECK(table.begin(2) == 4);
    CHECK(table.end(2) == 6);
    CHECK(text::LineTable("x").line(0) == "x");
    const text::LfLines ended = text::split_lf_lines("ab\n\ncd\n");
    CHECK(ended.lines == Lines{"ab", "", "cd"});
    CHECK(ended.ends_with_newline);
    const text::LfLines open = text::split_lf_lines("ab");
    CHECK(open.lines == Lines{"ab"});
    CHECK_FALSE(open.ends_with_newline);
}
