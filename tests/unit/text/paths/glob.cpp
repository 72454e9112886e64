// Unit tests of text/glob: `*`, `?`, sets, `**` as a whole component, escapes, case folding, and
// Glob's brace alternatives.
#include <doctest/doctest.h>

#include <string>

#include "text/paths/glob.hpp"

using text::glob_match;

TEST_CASE("glob: ** counts only as a whole path component; elsewhere it is *") {
    CHECK(glob_match("**/a", "a"));
    CHECK(glob_match("**/a", "x/y/a"));
    CHECK(glob_match("a/**", "a/x/y"));
    CHECK(glob_match("a/**/b", "a/b"));
    CHECK(glob_match("a/**/b", "a/x/y/b"));
    CHECK_FALSE(glob_match("a/**/b", "ab"));
    CHECK(glob_match("a**b", "axxb"));
    CHECK_FALSE(glob_match("a**b", "a/b"));  // not a whole component: does not cross folders
    CHECK(glob_match("**", "x/y/z"));
}

TEST_CASE("glob: sets, negated sets, escapes, a lone [") {
    CHECK(glob_match("[^ab].txt", "c.txt"));
    CHECK_FALSE(glob_match("[^ab].txt", "a.txt"));
    CHECK(glob_match("[]]", "]"));
    CHECK(glob_match("a[", "a["));
    CHECK(glob_match("\\[x\\]", "[x]"));
    CHECK_FALSE(glob_match("[a-z]", "/"));
}

TEST_CASE("glob: case folding is ASCII and optional") {
    CHECK_FALSE(glob_match("*.TXT", "a.txt"));
    CHECK(glob_match("*.TXT", "a.txt", true));
    CHECK(glob_match("[A-C]x", "bX", true));
    CHECK_FALSE(glob_match("[A-C]x", "bX"));
}

TEST_CASE("glob: a pattern of many stars against a long name stays linear") {
    const std::string pattern = std::string(200, '*') + "b";
    const std::string name(4000, 'a');
    CHECK_FALSE(glob_match(pattern, name));
    CHECK(glob_match(pattern, name + "b"));
}

TEST_CASE("glob_match: * and ? stop at /, ** crosses folders, **/ may match no folder") {
    CHECK(glob_match("*.py", "a.py"));
    CHECK(glob_match("*.py", ".py"));
    CHECK_FALSE(glob_match("*.py", "a.pyc"));
    CHECK_FALSE(glob_match("*.py", "src/a.py"));
    CHECK(glob_match("?.c", "a.c"));
    CHECK_FALSE(glob_match("?.c", "ab.c"));
    CHECK_FALSE(glob_match("a?b", "a/b"));
    CHECK(glob_match("src/**/*.ts", "src/a.ts"));
    CHECK(glob_match("src/**/*.ts", "src/x/y/a.ts"));
    CHECK_FALSE(glob_match("src/**/*.ts", "lib/a.ts"));
    CHECK(glob_match("src/**", "src/x/y"));
    CHECK(glob_match("**/test_*.py", "test_a.py"));
    CHECK(glob_match("**/test_*.py", "a/b/test_a.py"));
    CHECK_FALSE(glob_match("**/test_*.py", "a/b/xtest_a.py"));
    CHECK(glob_match("[ab].txt", "b.txt"));
    CHECK_FALSE(glob_match("[!ab].txt", "b.txt"));
    CHECK(glob_match("[a-c]x", "cx"));
    CHECK(glob_match("\\*.txt", "*.txt"));
    CHECK_FALSE(glob_match("\\*.txt", "a.txt"));
}

TEST_CASE("glob_match: no exponential backtracking on many stars") {
    const std::string text(2000, 'a');
    CHECK_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*a*b", text));
}

TEST_CASE("Glob: braces expand (nested too); a glob with / matches the path under the root") {
    auto g = text::Glob::parse("*.{c,cc,cpp,h,hpp}");
    REQUIRE(g);
    CHECK(g->matches("x.cc", "src/x.cc"));
    CHECK(g->matches("x.hpp", "x.hpp"));
    CHECK_FALSE(g->matches("x.py", "x.py"));
    CHECK_FALSE(g->on_path());
    auto nested = text::Glob::parse("a.{x,y{1,2}}");
    REQUIRE(nested);
    CHECK(nested->matches("a.y2", "a.y2"));
    CHECK(nested->matches("a.x", "a.x"));
    CHECK_FALSE(nested->matches("a.y", "a.y"));
    auto path = text::Glob::parse("src/*.py");
    REQUIRE(path);
    CHECK(path->on_path());
    CHECK(path->matches("a.py", "src/a.py"));
    CHECK_FALSE(path->matches("a.py", "a.py"));
    CHECK_FALSE(path->matches("a.py", "lib/src/a.py"));
    auto anchored = text::Glob::parse("/src/*.py");
    REQUIRE(anchored);
    CHECK(anchored->matches("a.py", "src/a.py"));
    auto literal = text::Glob::parse("{x}.txt");  // no comma: literal braces
    REQUIRE(literal);
    CHECK(literal->matches("{x}.txt", "{x}.txt"));
    CHECK_FALSE(text::Glob::parse(""));
    CHECK_FALSE(text::Glob::parse("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"));  // 512 alternatives
}

TEST_CASE("Glob: alternatives are counted before they are expanded; a long brace chain is refused at once") {
    // 8 groups of two: 256 alternatives, the most a glob may have; nested groups count their sum.
    CHECK(text::Glob::parse("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"));
    CHECK(text::Glob::parse("{a,{b,c,{d,e}}}{x,y}"));  // 4 x 2
    // `{a,b}` written 800 times (4,000 bytes, under the length bound): refused by its count. Before, the
    // expansion held one copy of the pattern per group on the stack (16,000 groups took 1.5 GB).
    std::string chain;
    for (int i = 0; i < 800; ++i) chain += "{a,b}";
    const auto refused = text::Glob::parse(chain);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("more than 256 alternatives") != std::string::npos);
    // Deeply nested groups with one alternative each side stay countable.
    std::string nested = "x";
    for (int i = 0; i < 500; ++i) nested = "{" + nested + ",y}";
    CHECK_FALSE(text::Glob::parse(nested));  // 501 alternatives
    // Longer than max_pattern_bytes: refused by its length, whatever it holds.
    const auto long_one = text::Glob::parse(std::string(text::Glob::max_pattern_bytes + 1, 'a'));
    REQUIRE_FALSE(long_one);
    CHECK(long_one.error().message.find("bytes long") != std::string::npos);
}
