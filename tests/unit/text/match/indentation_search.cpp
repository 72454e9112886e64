// Unit tests of the one indentation search: the prefix rule, the tab-width rule when one side uses
// tabs, places that do not overlap, and reindent moving new_string by the same shift.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "text/match/indentation_search.hpp"

namespace {

struct Found {
    std::vector<std::pair<std::size_t, std::size_t>> places;
    std::vector<text::IndentShift> shifts;
};

Found find(std::string_view file, std::string_view needle) {
    Found out;
    const text::LineTable table(file);
    const std::size_t taken =
        text::find_indented(table, needle, [&](std::size_t b, std::size_t e, const text::IndentShift& s) {
            out.places.emplace_back(b, e);
            out.shifts.push_back(s);
            return true;
        });
    CHECK(taken == out.places.size());
    return out;
}

}  // namespace

TEST_CASE("prefix rule: every line gains the same indentation; new_string gains it too") {
    const Found f = find("x\n    a\n      b\n", "a\n  b\n");
    REQUIRE(f.places.size() == 1);
    CHECK(f.places[0] == std::pair<std::size_t, std::size_t>{2, 16});
    CHECK(f.shifts[0].add);
    CHECK(f.shifts[0].prefix == "    ");
    CHECK(text::reindent("A\n  B\n\nC", f.shifts[0]) == "    A\n      B\n\n    C");
    // Removed: the needle is indented more than the file.
    const Found less = find("a\n  b\n", "  a\n    b\n");
    REQUIRE(less.places.size() == 1);
    CHECK_FALSE(less.shifts[0].add);
    CHECK(text::reindent("  A\n    B\n", less.shifts[0]) == "A\n  B\n");
}

TEST_CASE("places do not overlap, and a line that differs in more than indentation is no place") {
    CHECK(find("  a\n  a\n  a\n", "a\na\n").places.size() == 1);
    CHECK(find("  a\n  b\n", "a\nc\n").places.empty());
    CHECK(find("  a\n", "a\n").places.size() == 1);
    CHECK(find("  a", "a\n").places.empty());  // the file's line has no newline
}

TEST_CASE("tab-width rule: tabs in the file, spaces in the needle, at the width that fits") {
    const Found f = find("\tif x:\n\t\ty()\n", "    if x:\n        y()\n");
    REQUIRE(f.places.size() == 1);
    CHECK(f.shifts[0].by_width);
    CHECK(f.shifts[0].tab_width == 4);
    CHECK(f.shifts[0].file_uses_tabs);
    CHECK(text::reindent("    if z:\n        w()\n", f.shifts[0]) == "\tif z:\n\t\tw()\n");
}
