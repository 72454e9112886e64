// Unit tests of line likeness: the fixed scores for whitespace and Unicode-form differences, the
// bigram score otherwise, and the most similar line of a file.
#include <doctest/doctest.h>

#include "text/match/line_likeness.hpp"

TEST_CASE("line_likeness: equal, trailing blanks, indentation, Unicode forms, then bigrams") {
    CHECK(text::line_likeness("a = 1", "a = 1") == 1.0);
    CHECK(text::line_likeness("a = 1  ", "a = 1") == 0.98);
    CHECK(text::line_likeness("    a = 1", "a = 1") == 0.96);
    CHECK(text::line_likeness("\uFF41 = 1", "a = 1") == 0.94);
    const double near = text::line_likeness("total = price * count", "total = price * amount");
    const double far = text::line_likeness("total = price * count", "return nothing");
    CHECK(near < 0.9);
    CHECK(near > far);
}

TEST_CASE("most_similar_line: the offset of the best line, none when nothing shares half the bigrams") {
    const std::string_view lf = "alpha\nprint(total)\nomega\n";
    CHECK(text::most_similar_line(lf, "print(totals)") == std::optional<std::size_t>{6});
    CHECK_FALSE(text::most_similar_line(lf, "zzzz").has_value());
    CHECK_FALSE(text::most_similar_line(lf, "x").has_value());
}
