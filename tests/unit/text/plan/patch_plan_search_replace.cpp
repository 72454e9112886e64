// Unit tests of text::plan_file_patch on SEARCH/REPLACE blocks: blocks applied together to exact
// bytes (CRLF, BOM, no final newline), hints and duplicates, the matcher's tiers and explanations,
// overlaps. Similarity matching has its own file (patch_plan_similarity.cpp).
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

TEST_CASE("plan search/replace: blocks apply together against the original, each reported") {
    const std::string file = "alpha\nbeta\ngamma\ndelta\n";
    const Outcome o =
        plan_and_apply(sr("beta\n", "BETA\nBETA2\n") + sr("delta\n", "") + sr("alpha\n", "ALPHA\n"), file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "ALPHA\nBETA\nBETA2\ngamma\n");
    REQUIRE(o.blocks.size() == 3);
    CHECK(o.blocks[0].index == 1);
    CHECK(o.blocks[0].patch_line == 1);
    CHECK(o.blocks[0].line == 2);
    CHECK(o.blocks[0].match == text::BlockMatch::exact);
    CHECK(o.blocks[0].similarity == 1.0);
    CHECK(o.blocks[1].line == 4);
    CHECK(o.blocks[1].patch_line == 8);
    CHECK(o.blocks[2].line == 1);
}

TEST_CASE("plan search/replace: CRLF files keep CRLF, also in inserted lines; a BOM is kept") {
    CHECK(plan_and_apply(sr("b\nc\n", "B\nnew\nC\n"), "a\r\nb\r\nc\r\nd\r\n").bytes == "a\r\nB\r\nnew\r\nC\r\nd\r\n");
    CHECK(plan_and_apply(sr("a\n", "A\n"),
                         "\xEF\xBB\xBF"
                         "a\nb\n")
              .bytes ==
          "\xEF\xBB\xBF"
          "A\nb\n");
    CHECK(plan_and_apply(sr("a\nb\n", "x\n"),
                         "\xEF\xBB\xBF"
                         "a\r\nb\r\n")
              .bytes ==
          "\xEF\xBB\xBF"
          "x\r\n");
    // A CR-only file.
    CHECK(plan_and_apply(sr("b\n", "B1\nB2\n"), "a\rb\rc\r").bytes == "a\rB1\rB2\rc\r");
}

TEST_CASE("plan search/replace: a file without a final newline keeps having none") {
    CHECK(plan_and_apply(sr("b\n", "B\n"), "a\nb").bytes == "a\nB");
    CHECK(plan_and_apply(sr("b\n", "B\nC\n"), "a\r\nb").bytes == "a\r\nB\r\nC");
    CHECK(plan_and_apply(sr("b\n", ""), "a\nb").bytes == "a");
    CHECK(plan_and_apply(sr("a\nb\n", ""), "a\nb").bytes == "");
    CHECK(plan_and_apply(sr("a\n", "A\n"), "a\nb").bytes == "A\nb");
    // And a file with one keeps it when its last line is replaced or deleted.
    CHECK(plan_and_apply(sr("b\n", "B\n"), "a\nb\n").bytes == "a\nB\n");
    CHECK(plan_and_apply(sr("b\n", ""), "a\nb\n").bytes == "a\n");
}

TEST_CASE("plan search/replace: a wrong :start_line: with a unique match still applies") {
    const Outcome o = plan_and_apply(sr("line7\n", "SEVEN\n", ":start_line:30\n"), numbered(10));
    REQUIRE(o.error == "");
    CHECK(o.bytes.find("line6\nSEVEN\nline8\n") != std::string::npos);
    CHECK(o.blocks[0].line == 7);
    CHECK(o.blocks[0].stated_line == 30);
}

TEST_CASE("plan search/replace: duplicates: an error without a hint, the nearest with one") {
    const std::string file = "x = 1\nsep\nx = 1\nsep\nx = 1\n";
    const Outcome none = plan_and_apply(sr("x = 1\n", "x = 2\n"), file);
    CHECK(none.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text matches 3 places in f.txt "
          "(starting at lines 1, 3, 5). Give :start_line: with the line where the one meant starts (for example "
          ":start_line:1 right after <<<<<<< SEARCH), or include more of the surrounding lines in SEARCH so that "
          "it matches only that place.\nNothing was changed.");
    REQUIRE(none.failures.size() == 1);
    CHECK(none.failures[0].kind == text::BlockFailureKind::ambiguous);
    CHECK(none.failures[0].index == 1);

    const Outcome hinted = plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:4\n"), file);
    CHECK(hinted.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text matches 3 places in f.txt "
          "(starting at lines 1, 3, 5), and lines 3, 5 are equally near the stated line 4. Give :start_line: with "
          "the line where the one meant starts (for example :start_line:1 right after <<<<<<< SEARCH), or include "
          "more of the surrounding lines in SEARCH so that it matches only that place.\nNothing was changed.");

    const Outcome near = plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:6\n"), file);
    CHECK(near.bytes == "x = 1\nsep\nx = 1\nsep\nx = 2\n");
    CHECK(near.blocks[0].line == 5);
    CHECK(plan_and_apply(sr("x = 1\n", "x = 2\n", ":start_line:3\n"), file).bytes == "x = 1\nsep\nx = 2\nsep\nx = 1\n");
}

TEST_CASE("plan search/replace: blocks are whole lines: a line equal to SEARCH wins over lines ending with it") {
    const std::string file = "if (a) {\n    }\n}\nnext\n";
    const Outcome o = plan_and_apply(sr("}\n", "} // end\n"), file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "if (a) {\n    }\n} // end\nnext\n");
    CHECK(o.blocks[0].line == 3);
}

TEST_CASE("plan search/replace: a SEARCH that starts with an empty line needs an empty line in the file") {
    const std::string patch = sr("\ndef foo():\n", "def foo2():\n");
    CHECK(plan_and_apply(patch, "x = 1\n\ndef foo():\n").bytes == "x = 1\ndef foo2():\n");
    CHECK(plan_and_apply(patch, "x = 1\r\n\r\ndef foo():\r\n").bytes == "x = 1\r\ndef foo2():\r\n");
    const Outcome o = plan_and_apply(patch, "x = 1\ndef foo():\n");
    CHECK(o.error ==
          "Block 1 (line 1 of the diff) could not be applied to f.txt: The SEARCH text starts with an empty line, "
          "but in f.txt the lines that follow it (from line 2) come right after line 1, which is not empty. Remove "
          "the empty first line (from the new lines too, if they start with one), or copy the lines exactly from "
          "the file.\nNothing was changed.");
    // With an empty line elsewhere, that place is the one.
    CHECK(plan_and_apply(patch, "x = 1\ndef foo():\n\ndef foo():\n").bytes == "x = 1\ndef foo():\ndef foo2():\n");
}

TEST_CASE("plan search/replace: escaped markers apply as the markers themselves") {
    const std::string file = "keep\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n";
    const std::string patch =
        "<<<<<<< SEARCH\n\\<<<<<<< HEAD\nmine\n\\=======\ntheirs\n\\>>>>>>> other\n=======\nmine\n>>>>>>> REPLACE\n";
    CHECK(plan_and_apply(patch, file).bytes == "keep\nmine\n");
}

TEST_CASE("plan search/replace: line-number prefixes copied from read output are removed") {
    const std::string patch = sr("     2\tbeta\n     3\tgamma\n", "     2\tBETA\n     3\tgamma\n");
    const Outcome o = plan_and_apply(patch, "alpha\nbeta\ngamma\n");
    REQUIRE(o.error == "");
    CHECK(o.bytes == "alpha\nBETA\ngamma\n");
    CHECK(o.blocks[0].match == text::BlockMatch::line_numbers);
}

TEST_CASE("plan search/replace: tolerant tiers are named, indentation is carried to the new lines") {
    const Outcome o = plan_and_apply(sr("if x:\n    y()\n", "if x:\n    z()\n"), "def f():\n    if x:\n        y()\n");
    REQUIRE(o.error == "");
    CHECK(o.bytes == "def f():\n    if x:\n        z()\n");
    CHECK(o.blocks[0].match == text::BlockMatch::indentation);
    CHECK(plan_and_apply(sr("a = 1  \n", "a = 2\n"), "a = 1\n").blocks[0].match ==
          text::BlockMatch::trailing_whitespace);
}

TEST_CASE("plan search/replace: not found, already applied, identical: the matcher's explanation, all blocks") {
    const std::string file = "one\ntwo\nthree\n";
    const Outcome o = plan_and_apply(
        sr("two\n", "TWO\n") + sr("thre\n", "3\n") + sr("four\n", "4\n") + sr("one\n", "one\n"), "one\ntwo\nthree\n");
    CHECK(
        o.error.starts_with("3 of the 4 blocks for f.txt could not be applied.\n\nBlock 2 (line 7 of the diff): "
                            "SEARCH was not found in the file"));
    CHECK(o.error.find("\n\nBlock 3 (line 13 of the diff): SEARCH was not found in the file") != std::string::npos);
    CHECK(o.error.find("\n\nBlock 4 (line 19 of the diff): it changes nothing: its old and new lines are the "
                       "same.") != std::string::npos);
    CHECK(
        o.error.ends_with("\nNothing was changed: no block was applied, so send the whole diff again with the "
                          "failing blocks fixed."));
    REQUIRE(o.failures.size() == 3);
    CHECK(o.failures[0].kind == text::BlockFailureKind::not_found);
    CHECK(o.failures[0].index == 2);
    CHECK(o.failures[0].message.find("The closest region is line 3") != std::string::npos);
    CHECK(o.failures[2].kind == text::BlockFailureKind::identical);

    const Outcome done = plan_and_apply(sr("2nd line\n", "second line\n"), "one\nsecond line\nthree\n");
    REQUIRE(done.failures.size() == 1);
    CHECK(done.failures[0].kind == text::BlockFailureKind::already_applied);
    CHECK(
        done.error.starts_with("Block 1 (line 1 of the diff) could not be applied to f.txt: SEARCH was not found "
                               "in the file, but the new text (REPLACE) is already present at line 2"));
    (void)file;
}

TEST_CASE("plan search/replace: overlapping blocks are an error naming both") {
    const Outcome o = plan_and_apply(sr("b\nc\n", "BC\n") + sr("c\nd\n", "CD\n"), "a\nb\nc\nd\n");
    CHECK(o.error ==
          "Block 2 (line 8 of the diff) could not be applied to f.txt: it overlaps block 1 (line 1 of the diff): "
          "block 1 changes lines 2-3 and block 2 changes lines 3-4 of f.txt. Every block is matched against the "
          "file as it is now, so two of them must not change the same lines: merge them into one block.\n"
          "Nothing was changed: no block was applied, so send the whole diff again with the failing block fixed.");
    REQUIRE(o.failures.size() == 1);
    CHECK(o.failures[0].kind == text::BlockFailureKind::overlap);
    // Adjacent blocks do not overlap.
    CHECK(plan_and_apply(sr("b\n", "B\n") + sr("c\n", "C\n"), "a\nb\nc\nd\n").bytes == "a\nB\nC\nd\n");
}
