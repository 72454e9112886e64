// Unit tests of the words matching failures share: tier clauses, the place nearest a stated line,
// and lists cut after a few.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/match/match_messages.hpp"

TEST_CASE("tier_condition: nothing for exact; read's prefixes named only when asked") {
    CHECK(text::tier_condition(text::MatchTier::exact, true).empty());
    CHECK(text::tier_condition(text::MatchTier::trailing_whitespace, false) == " when trailing whitespace is ignored");
    CHECK(text::tier_condition(text::MatchTier::indentation, true) == " when indentation is ignored");
    CHECK(text::tier_condition(text::MatchTier::line_numbers, true) ==
          " once its read line-number prefixes are removed");
    CHECK(text::tier_condition(text::MatchTier::line_numbers, false) == " once its line-number prefixes are removed");
}

TEST_CASE("nearest_to_hint: every place at the smallest distance, in order") {
    const std::vector<std::size_t> lines{3, 10, 17, 30};
    auto at = [&](std::size_t i) { return lines[i]; };
    CHECK(text::nearest_to_hint(lines.size(), 11, at) == std::vector<std::size_t>{1});
    CHECK(text::nearest_to_hint(lines.size(), 10, at) == std::vector<std::size_t>{1});
    CHECK(text::nearest_to_hint(lines.size(), 0, at) == std::vector<std::size_t>{0});
    CHECK(text::nearest_to_hint(lines.size(), 6, at) == std::vector<std::size_t>{0});
    CHECK(text::nearest_to_hint(2, 20, [](std::size_t i) { return i == 0 ? std::size_t{17} : std::size_t{23}; }) ==
          std::vector<std::size_t>{0, 1});
    CHECK(text::nearest_to_hint(0, 5, at).empty());
}

TEST_CASE("list_items: cut after max_shown with \", and N more\"; \", and\" before the last when asked") {
    auto number = [](std::size_t i) { return std::to_string(i + 1); };
    CHECK(text::list_items(3, 10, 3, number) == "1, 2, 3");
    CHECK(text::list_items(3, 10, 3, number, true) == "1, 2, and 3");
    CHECK(text::list_items(5, 2, 5, number, true) == "1, 2, and 3 more");
    CHECK(text::list_items(2, 10, 7, number) == "1, 2, and 5 more");
}
