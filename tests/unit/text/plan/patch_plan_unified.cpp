// Unit tests of text::plan_file_patch on unified diffs: hunks off their stated lines, repeated
// context told apart, pure additions, the final newline, create and delete, a missing context.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "text/patch/patch_detect.hpp"
#include "text/plan/patch_plan.hpp"

#include "plan_outcome.hpp"

using test_text::numbered;
using test_text::Outcome;
using test_text::plan_and_apply;
using test_text::sr;

TEST_CASE("plan unified: hunks found near their stated lines when the numbers are off") {
    const std::string file = numbered(40);
    const std::string patch =
        "--- a/f.txt\n+++ b/f.txt\n"
        "@@ -20,3 +20,3 @@\n line9\n-line10\n+LINE10\n line11\n"  // really at 9-11
        "@@ -30,2 +30,3 @@\n line35\n+new\n line36\n";            // really at 35-36
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    std::string expected = numbered(40);
    expected.replace(expected.find("line10\n"), 7, "LINE10\n");
    expected.insert(expected.find("line36\n"), "new\n");
    CHECK(o.bytes == expected);
    REQUIRE(o.blocks.size() == 2);
    CHECK(o.blocks[0].line == 9);
    CHECK(o.blocks[0].stated_line == 20);
    CHECK(o.blocks[1].line == 35);
}

TEST_CASE("plan unified: repeated context is told apart by the stated line") {
    const std::string file = "{\n  x;\n}\n{\n  x;\n}\n{\n  x;\n}\n";
    const std::string patch = "--- a/f\n+++ b/f\n@@ -5,1 +5,1 @@\n-  x;\n+  y;\n";
    CHECK(plan_and_apply(patch, file).bytes == "{\n  x;\n}\n{\n  y;\n}\n{\n  x;\n}\n");
    const std::string off = "--- a/f\n+++ b/f\n@@ -7,1 +7,1 @@\n-  x;\n+  y;\n";  // nearest to 7 is line 8
    CHECK(plan_and_apply(off, file).bytes == "{\n  x;\n}\n{\n  x;\n}\n{\n  y;\n}\n");
}

TEST_CASE("plan unified: in a large file, the nearest place to the stated line, ties reported") {
    // Over 1 MiB, so the lines near the stated line are searched first; results are the whole file's.
    auto make = [](std::initializer_list<std::size_t> dups) {
        std::string file;
        for (std::size_t i = 1; i <= 120000; ++i) {
            bool dup = false;
            for (const std::size_t d : dups) dup = dup || d == i;
            file += dup ? "dup\n" : "row " + std::to_string(i) + "\n";
        }
        return file;
    };
    auto hunk = [](std::size_t line) {
        return "--- a/f\n+++ b/f\n@@ -" + std::to_string(line) + ",1 +" + std::to_string(line) + ",1 @@\n-dup\n+DUP\n";
    };
    auto changed_line = [](const Outcome& o) { return o.blocks.empty() ? 0 : o.blocks[0].line; };
    const std::string three = make({1000, 30000, 50000});
    REQUIRE(three.size() > (1u << 20));
    CHECK(changed_line(plan_and_apply(hunk(29000), three)) == 30000);
    CHECK(changed_line(plan_and_apply(hunk(45000), three)) == 50000);  // 5000 lines away: the whole file decides
    CHECK(plan_and_apply(hunk(40000), three).failures.at(0).kind == text::BlockFailureKind::ambiguous);
    const std::string pair = make({27000, 31000, 31001});
    CHECK(changed_line(plan_and_apply(hunk(29000), pair)) == 0);  // 27000 and 31000 are both 2000 lines away
    CHECK(
        plan_and_apply(hunk(29000), pair).error.find("and lines 27000, 31000 are equally near the stated line 29000") !=
        std::string::npos);
    CHECK(changed_line(plan_and_apply(hunk(29001), pair)) == 31000);
    const Outcome applied = plan_and_apply(hunk(29001), pair);
    CHECK(applied.bytes.size() == pair.size());
    CHECK(applied.bytes.substr(applied.bytes.find("row 30999\n"), 20) == "row 30999\nDUP\ndup\nro");
}

TEST_CASE("plan unified: pure additions go after their stated line, in the file's newline style") {
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3,2 @@\n+x\n+y\n", "a\r\nb\r\nc\r\n").bytes ==
          "a\r\nb\r\nx\r\ny\r\nc\r\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+top\n", "a\nb\n").bytes == "top\na\nb\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+end\n", "a\nb\n").bytes == "a\nb\nend\n");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -2,0 +3 @@\n+end\n", "a\nb").bytes == "a\nb\nend");
    const Outcome far = plan_and_apply("--- a/f\n+++ b/f\n@@ -9,0 +10 @@\n+x\n", "a\nb\n");
    CHECK(far.error ==
          "Hunk 1 (line 3 of the diff) could not be applied to f: it adds lines after line 9, but f has 2 lines. "
          "Correct the line number in its header (0 puts the lines before line 1), or add context lines around "
          "the new ones.\nNothing was changed.");
}

TEST_CASE("plan unified: \\ No newline at end of file adds, removes or keeps the final newline") {
    // The old side has no final newline, the new one has.
    CHECK(
        plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", "a\nb").bytes ==
        "a\nb\n");
    // The new side loses it.
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n", "a\nb\n")
              .bytes == "a\nc");
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n", "a\r\nb\r\n")
              .bytes == "a\r\nc");
    // Both sides without: stays without.
    CHECK(plan_and_apply(
              "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end "
              "of file\n",
              "a\nb")
              .bytes == "a\nc");
    // No marker, but the file has no final newline: kept as it is.
    CHECK(plan_and_apply("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "a\nb").bytes == "a\nc");
}

TEST_CASE("plan unified: create and delete") {
    const std::string patch =
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
        "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n";
    const Outcome created = plan_and_apply(patch, std::nullopt, 1.0, 0);
    REQUIRE(created.error == "");
    CHECK(created.action == text::FileAction::create);
    CHECK(created.bytes == "hello\nworld\n");
    REQUIRE(created.blocks.size() == 1);
    CHECK(created.blocks[0].match == text::BlockMatch::created);

    const Outcome exists = plan_and_apply(patch, std::string_view("other\n"), 1.0, 0);
    CHECK(exists.error ==
          "new.txt already exists (6 bytes), so it cannot be created. To change it, send a diff against its "
          "current content (--- a/new.txt, +++ b/new.txt); read it first to see its lines. Nothing was changed.");
    CHECK(plan_and_apply(patch, std::string_view("hello\r\nworld\r\n"), 1.0, 0).failures[0].kind ==
          text::BlockFailureKind::already_applied);
    CHECK(plan_and_apply(patch, std::string_view(""), 1.0, 0).bytes ==
          "hello\nworld\n");  // an empty file may be filled

    const Outcome deleted = plan_and_apply(patch, std::string_view("bye\r\nnow"), 1.0, 1);
    REQUIRE(deleted.error == "");
    CHECK(deleted.action == text::FileAction::remove);
    CHECK(deleted.bytes == "");
    CHECK(deleted.blocks[0].match == text::BlockMatch::deleted);
    CHECK(plan_and_apply(patch, std::string_view("bye\nlater\n"), 1.0, 1).error ==
          "the diff deletes old.txt, but the lines it shows as removed are not the file's content (at line 2 the "
          "file has \"later\" and the diff has \"now\"). Read the file and send the deletion again with its current "
          "lines. Nothing was changed.");
    CHECK(plan_and_apply(patch, std::nullopt, 1.0, 1).error ==
          "old.txt does not exist, so it cannot be deleted. Nothing was changed.");
    CHECK(plan_and_apply("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", std::nullopt).error ==
          "x does not exist, so its hunks cannot be applied. To create it, send it as a new file (--- /dev/null, "
          "+++ b/PATH). Nothing was changed.");
}

TEST_CASE("plan unified: a hunk whose context is not in the file quotes the closest region") {
    const Outcome o =
        plan_and_apply("--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n beta\n-gamma\n+GAMMA\n", "alpha\nbeta\ngama\n");
    REQUIRE(o.failures.size() == 1);
    CHECK(
        o.error.starts_with("Hunk 1 (line 3 of the diff) could not be applied to f: the hunk was not found in the "
                            "file, not even with trailing whitespace"));
    CHECK(o.error.find("The closest region is lines 2-3") != std::string::npos);
}
