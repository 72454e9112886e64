// Unit tests of text/glob: `*`, `?`, sets, `**` as a whole component, escapes, case folding.
#include <doctest/doctest.h>

#include <string>

#include "text/glob.hpp"

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
