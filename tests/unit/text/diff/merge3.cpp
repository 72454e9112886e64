// Unit tests of text/merge3: disjoint changes merge (byte-exact: CRLF, no final newline, Latin-1),
// the same change on both sides merges once, overlapping and touching insertions conflict with
// both sides reported, and a large file merges.
#include <doctest/doctest.h>

#include <string>

#include "text/diff/merge3.hpp"

using text::merge3;

TEST_CASE("merge3: changes to different lines merge") {
    const std::string base = "a\nb\nc\nd\ne\n";
    const auto r = merge3(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n");
    REQUIRE(r.clean);
    CHECK(r.merged == "A\nb\nc\nd\nE\n");
    CHECK(r.ours_hunks == 1);
    CHECK(r.theirs_hunks == 1);
}

TEST_CASE("merge3: adjacent lines, insertions elsewhere, deletions") {
    CHECK(merge3("a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n").merged == "A\nB\nc\n");
    CHECK(merge3("a\nb\nc\n", "a\nb\nc\nd\n", "x\na\nb\nc\n").merged == "x\na\nb\nc\nd\n");
    CHECK(merge3("a\nb\nc\nd\n", "a\nc\nd\n", "a\nb\nc\nD\n").merged == "a\nc\nD\n");
}

TEST_CASE("merge3: bytes are kept: CRLF, no final newline, Latin-1") {
    const std::string base = "x\r\ny\r\nz";
    const auto r = merge3(base, "X\r\ny\r\nz", "x\r\ny\r\nz\xE9");
    REQUIRE(r.clean);
    CHECK(r.merged == "X\r\ny\r\nz\xE9");
}

TEST_CASE("merge3: the same change on both sides is taken once") {
    const auto r = merge3("a\nb\n", "a\nB\n", "a\nB\n");
    REQUIRE(r.clean);
    CHECK(r.merged == "a\nB\n");
}

TEST_CASE("merge3: overlapping changes conflict, both sides and where") {
    const auto r = merge3("one\ntwo\nthree\nfour\n", "one\nTWO\nthree\nfour\n", "zero\none\n2\nthree\nfour\n");
    REQUIRE_FALSE(r.clean);
    CHECK(r.merged.empty());
    REQUIRE(r.conflicts.size() == 1);
    const auto& c = r.conflicts[0];
    CHECK(c.base_first == 2);
    CHECK(c.base_count == 1);
    CHECK(c.theirs_first == 3);  // theirs added a line above
    CHECK(c.base_text == "two\n");
    CHECK(c.ours_text == "TWO\n");
    CHECK(c.theirs_text == "2\n");
}

TEST_CASE("merge3: insertions at the same place, or inside the other's change, conflict") {
    CHECK_FALSE(merge3("a\nb\n", "a\nx\nb\n", "a\ny\nb\n").clean);
    CHECK_FALSE(merge3("a\nb\nc\n", "a\nB\nc\n", "a\nb\nnew\nc\n").clean);
}

TEST_CASE("merge3: one side unchanged gives the other") {
    CHECK(merge3("a\nb\n", "a\nb\n", "a\nc\n").merged == "a\nc\n");
    CHECK(merge3("a\nb\n", "z\n", "a\nb\n").merged == "z\n");
    CHECK(merge3("", "new\n", "").merged == "new\n");
}

TEST_CASE("merge3: a large file with changes at both ends") {
    std::string base;
    for (int i = 0; i < 200000; ++i) base += "line " + std::to_string(i) + "\n";
    std::string ours = base, theirs = base;
    ours.replace(0, 7, "LINE 0\n");
    const auto last = theirs.rfind("line 199999");
    theirs.replace(last, 11, "LAST");
    const auto r = merge3(base, ours, theirs);
    REQUIRE(r.clean);
    CHECK(r.merged.substr(0, 7) == "LINE 0\n");
    CHECK(r.merged.substr(r.merged.size() - 5) == "LAST\n");
    CHECK(r.merged.size() == base.size() - 7);
}

TEST_CASE("merge3: a change whose place depends on how repeated lines are aligned is a conflict, not a guess") {
    // Ours doubled the block; which copy is the old one is not said by the bytes, so theirs' change
    // to the block could belong to either copy.
    const auto doubled = merge3("x = 1\ny = 2\n", "x = 1\ny = 2\nx = 1\ny = 2\n", "x = 10\ny = 2\n");
    CHECK_FALSE(doubled.clean);
    CHECK(doubled.merged.empty());
    REQUIRE(doubled.conflicts.size() == 1);
    CHECK(doubled.conflicts[0].base_first == 1);
    CHECK(doubled.conflicts[0].unaligned);
    CHECK(doubled.conflicts[0].theirs_text.find("x = 10") != std::string::npos);
    // The same the other way round: theirs doubled, ours changed one copy.
    CHECK_FALSE(merge3("x = 1\ny = 2\n", "x = 10\ny = 2\n", "x = 1\ny = 2\nx = 1\ny = 2\n").clean);
    // A blank line that slides around an insertion, so that one alignment makes it touch the
    // other change, leaves one result: merged.
    const auto slide = merge3("a\n\nb\n", "a\n\nx\n\nb\n", "A\n\nb\n");
    REQUIRE(slide.clean);
    CHECK(slide.merged == "A\n\nx\n\nb\n");
    // Repeated lines that every alignment places the same way still merge.
    const auto braces = merge3("f\n}\n}\ng\n", "F\n}\n}\ng\n", "f\n}\n}\nG\n");
    REQUIRE(braces.clean);
    CHECK(braces.merged == "F\n}\n}\nG\n");
}
