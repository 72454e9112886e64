// Unit tests of text::strip_line_number_prefixes: our read's tab, Claude Code's `N→`, Roo's `N | `,
// only when every non-empty line has one, all of one form.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "text/match/line_number_prefixes.hpp"

namespace {

std::optional<std::string> stripped(std::string_view text) {
    auto out = text::strip_line_number_prefixes(text);
    if (!out) return std::nullopt;
    return out->text;
}

}  // namespace

TEST_CASE("read's tab prefixes: the first number and its line's index") {
    const auto out = text::strip_line_number_prefixes("  10\tx\n  11\ty");
    REQUIRE(out.has_value());
    CHECK(out->text == "x\ny");
    CHECK(out->first_number == 10);
    CHECK(out->first_index == 0);
    const auto later = text::strip_line_number_prefixes("\n  7\tx");
    REQUIRE(later.has_value());
    CHECK(later->text == "\nx");
    CHECK(later->first_index == 1);
    CHECK_FALSE(stripped("  10\tx\ny").has_value());
    CHECK_FALSE(stripped("10 x").has_value());
    CHECK_FALSE(stripped("").has_value());
}

TEST_CASE("Claude Code's arrow and Roo's bar, never mixed") {
    const auto arrow = text::strip_line_number_prefixes("  12\u2192x\n  13\u2192");
    REQUIRE(arrow.has_value());
    CHECK(arrow->text == "x\n");
    CHECK(arrow->first_number == 12);
    CHECK(stripped("12 | x\n13 | y") == std::string("x\ny"));
    CHECK(stripped("1 | a\n2 |\n3 | b") == std::string("a\n\nb"));
    // One line without a prefix, or forms mixed: nothing is stripped.
    CHECK_FALSE(stripped("12 | x\ny").has_value());
    CHECK_FALSE(stripped("12\u2192x\ny").has_value());
    CHECK_FALSE(stripped("12 | x\n13\u2192y").has_value());
    CHECK_FALSE(stripped("12 |x").has_value());
}
