// Unit tests of text::diff_lines, the line edit script the unified diff prints: a shortest script on
// random inputs (checked against the longest common subsequence), and large pieces split or replaced.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "text/diff/line_edit_script.hpp"

namespace {

// Checks that `edits` turns a into b, and returns how many lines it adds or removes.
std::size_t replay(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                   const std::vector<text::LineEdit>& edits) {
    std::size_t i = 0, j = 0, changes = 0;
    for (const auto& e : edits) {
        switch (e.op) {
            case text::LineOp::common:
                REQUIRE(e.old_index == i);
                REQUIRE(e.new_index == j);
                REQUIRE(a[i] == b[j]);
                ++i;
                ++j;
                break;
            case text::LineOp::remove:
                REQUIRE(e.old_index == i);
                ++i;
                ++changes;
                break;
            case text::LineOp::add:
                REQUIRE(e.new_index == j);
                ++j;
                ++changes;
                break;
        }
    }
    REQUIRE(i == a.size());
    REQUIRE(j == b.size());
    return changes;
}

std::size_t lcs(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
        }
    }
    return t[a.size()][b.size()];
}

}  // namespace

TEST_CASE("diff_lines: a shortest edit script, removals before additions") {
    static const std::string_view alphabet[] = {"a", "b", "c", "d"};
    std::mt19937 rng(12345);
    for (int round = 0; round < 300; ++round) {
        std::vector<std::string_view> a(rng() % 12), b(rng() % 12);
        for (auto& x : a) x = alphabet[rng() % 4];
        for (auto& x : b) x = alphabet[rng() % 4];
        const auto edits = text::diff_lines(a, b);
        CHECK(replay(a, b, edits) == a.size() + b.size() - 2 * lcs(a, b));
        for (std::size_t k = 1; k < edits.size(); ++k) {
            CHECK_FALSE((edits[k - 1].op == text::LineOp::add && edits[k].op == text::LineOp::remove));
        }
    }
}

TEST_CASE("diff_lines: large pieces are split or replaced whole, always a valid script") {
    std::vector<std::string> storage;
    for (int i = 0; i < 3000; ++i) storage.push_back("u" + std::to_string(i));
    std::vector<std::string_view> a(storage.begin(), storage.end());
    std::vector<std::string_view> b = a;
    b[10] = "changed";
    b.erase(b.begin() + 2000);
    std::reverse(b.begin() + 2500, b.end());
    const auto edits = text::diff_lines(a, b);
    CHECK(replay(a, b, edits) > 0);

    // No unique line in common: written as replaced whole, still valid.
    std::vector<std::string_view> same_a(2500, "x"), same_b(2500, "y");
    same_b[0] = "x";
    CHECK(replay(same_a, same_b, text::diff_lines(same_a, same_b)) > 0);
}
