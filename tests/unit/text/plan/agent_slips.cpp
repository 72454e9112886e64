// Regression tests from the real-history corpus (issue 22): the sloppy calls real agents send that
// once reported success and left the wrong bytes. Each is either applied exactly right or refused.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "text/match/matcher.hpp"
#include "text/patch/patch_detect.hpp"
#include "text/plan/patch_plan.hpp"
#include "text/bytes/splice.hpp"

namespace {

struct Edited {
    std::string bytes;  // the new content on success
    std::string error;  // the message on failure
    std::string tier;
    text::MatchErrorKind kind = text::MatchErrorKind::not_found;
};

Edited edit(std::string_view file, std::string_view old_s, std::string_view new_s) {
    Edited out;
    auto m = text::match_edit(file, text::EditSpec{old_s, new_s, false});
    if (!m) {
        out.error = m.error().message;
        out.kind = m.error().kind;
        return out;
    }
    out.tier = text::to_string(m->tier);
    auto spliced = text::splice(file, m->replacements);
    REQUIRE(spliced.ok());
    out.bytes = std::move(spliced.value());
    return out;
}

struct Patched {
    std::string bytes;
    std::string error;
};

Patched patch(std::string_view diff, std::optional<std::string_view> file, double fuzzy = 1.0) {
    Patched out;
    auto parsed = text::parse_patch(diff);
    if (!parsed) {
        out.error = parsed.error().message;
        return out;
    }
    REQUIRE(parsed->files.size() == 1);
    text::PlanOptions options;
    options.format = parsed->format;
    options.display_path = "f";
    options.fuzzy_threshold = fuzzy;
    auto plan = text::plan_file_patch(file, parsed->files[0], options);
    if (!plan) {
        out.error = plan.error().message;
        return out;
    }
    out.bytes = plan->bytes;
    return out;
}

}  // namespace

TEST_CASE("slip 1: a tolerant tier that finds two places refuses and names both") {
    // Lines 1-2 and 4-5 are both old_string moved by one indentation shift (tabs of width 4 for
    // spaces, at two depths): no tier may pick one of them.
    const std::string file = "      end\n    end\nx\n  end\nend\n";
    const Edited e = edit(file, "\t  end\n\tend", "\t  end\n\tEND");
    CHECK(e.bytes.empty());
    CHECK(e.kind == text::MatchErrorKind::ambiguous);
    CHECK(e.error.find("1-2") != std::string::npos);
    CHECK(e.error.find("4-5") != std::string::npos);
}

TEST_CASE("slip 2: new_string lines already in the file's style are not re-indented") {
    // The caller typed old_string with spaces but new_string with the file's tab and alignment spaces.
    const Edited e = edit("\tif (a)\n\t\tb();\n", "    if (a)", "\tif (a &&\n\t    c)");
    CHECK(e.error == "");
    CHECK(e.bytes == "\tif (a &&\n\t    c)\n\t\tb();\n");
    // Lines in the caller's style are still moved to the file's.
    const Edited mixed =
        edit("\tif (a)\n\t\tb();\n", "    if (a)\n        b();", "    if (a &&\n\t    c)\n        b();");
    CHECK(mixed.error == "");
    CHECK(mixed.bytes == "\tif (a &&\n\t    c)\n\t\tb();\n");
}

TEST_CASE("slip 2b: tabs typed as spaces: a width the file writes two ways is told apart by evidence, or refused") {
    // The file indents statements with a tab and continues a declaration with four spaces: the
    // caller's four spaces could be either.
    const std::string file = "int\nf(int a,\n    int b)\n{\n\tint x;\n\n\tx = a;\n\treturn (x);\n}\n";
    // A statement after a line ending in ';': the file only ever indents those with a tab.
    CHECK(edit(file, "    x = a;\n    return (x);", "    x = a;\n    x += b;\n    return (x);").bytes ==
          "int\nf(int a,\n    int b)\n{\n\tint x;\n\n\tx = a;\n\tx += b;\n\treturn (x);\n}\n");
    // The same line elsewhere in the file says how it is indented.
    CHECK(edit(file, "    return (x);\n}", "    return (x);\n}\n\nint\ng(int a,\n    int b)\n{\n}").bytes ==
          file + "\nint\ng(int a,\n    int b)\n{\n}\n");
    // A rewritten line keeps the indentation of the line it rewrites; a width the file writes one
    // way only is written that way.
    CHECK(edit(file, "    x = a;", "    x = g(a,\n        b);").bytes ==
          "int\nf(int a,\n    int b)\n{\n\tint x;\n\n\tx = g(a,\n\t\tb);\n\treturn (x);\n}\n");
    // Nothing in the file tells: refused, naming both forms.
    const std::string mixed = "\tx = 1;\n    y = 2;\n\tz = 3;\n";
    const Edited unclear = edit(mixed, "    z = 3;", "    z = 3;\n    w = 4;");
    CHECK(unclear.kind == text::MatchErrorKind::unclear_indentation);
    CHECK(unclear.bytes.empty());
}

TEST_CASE("slip 3: whitespace-only lines and trailing whitespace in tolerant tiers") {
    // A whitespace-only line of new_string takes the file's style, not the caller's.
    const Edited blank =
        edit("\tif (a) {\n\t\tb();\n\t}\n", "    if (a) {\n        b();", "    if (a) {\n        \n        b();");
    CHECK(blank.error == "");
    CHECK(blank.bytes == "\tif (a) {\n\t\t\n\t\tb();\n\t}\n");
    // Trailing whitespace new_string drops is dropped from the file (old_string showed it, with
    // typographic quotes where the file has ASCII ones).
    const Edited dropped = edit("    a = 'x'  \nb\n", "    a = \xE2\x80\x98x\xE2\x80\x99  ", "    a = 'y'");
    CHECK(dropped.error == "");
    CHECK(dropped.bytes == "    a = 'y'\nb\n");
    const Edited ascii = edit("    a = 'x'  \nb\n", "    a = 'x'", "    a = 'y'");
    CHECK(ascii.error == "");
    CHECK(ascii.bytes == "    a = 'y'  \nb\n");  // the caller did not show the whitespace: it stays
    // new_string ends its line with blanks of its own: the file's blanks after the place are not
    // added to them (they would be doubled).
    const Edited doubled = edit("}  \nnext\n", "}", "} \n\nint g;  ");
    CHECK(doubled.error == "");
    CHECK(doubled.bytes == "} \n\nint g;  \nnext\n");
    // The same at a line's start: new_string gives the indentation old_string left out.
    CHECK(edit("  \nvar f = 1;\n", "\nvar f = 1;", " \nvar f = 2;").bytes == " \nvar f = 2;\n");
    CHECK(edit("\tif (a)\n\t\treturn 1;\n", "return 1;", "\t\treturn 2;").bytes == "\tif (a)\n\t\treturn 2;\n");
    // ... but other blanks are the caller's own, added literally.
    CHECK(edit("\tif (a)\n\t\treturn 1;\n", "return 1;", "  return 2;").bytes == "\tif (a)\n\t\t  return 2;\n");
    // A tolerant tier reads whole lines: a rewritten last line ends as new_string ends it, a
    // repeated one keeps the file's blanks.
    CHECK(edit("\ta = \u2018x\u2019;  \nb\n", "\ta = 'x';", "\ta = 'y';").bytes == "\ta = \u2018y\u2019;\nb\n");
    CHECK(edit("\ta = 1;  \n\tb = 2;\t\nc\n", "    a = 1;\n    b = 2;", "    a = 1;\n    b = 3;").bytes ==
          "\ta = 1;  \n\tb = 3;\nc\n");
    // A change that only removes trailing whitespace is a change, not "no change".
    const Edited only_ws = edit("    a = 'x'\n    \nb\n", "    a = \xE2\x80\x98x\xE2\x80\x99\n    ", "    a = 'x'\n");
    CHECK(only_ws.error == "");
    CHECK(only_ws.bytes == "    a = 'x'\n\nb\n");
}

TEST_CASE("slip 5: a file created by a unified diff keeps the newlines it was given") {
    const Patched crlf = patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n", std::nullopt);
    CHECK(crlf.error == "");
    CHECK(crlf.bytes == "a\r\nb\r\n");
    const Patched no_final =
        patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n\\ No newline at end of file\n", std::nullopt);
    CHECK(no_final.bytes == "a\r\nb");
    CHECK(patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n", std::nullopt).bytes == "a\nb\n");
    CHECK(patch("*** Begin Patch\n*** Add File: f\n+a\r\n+b\r\n*** End Patch\n", std::nullopt).bytes == "a\r\nb\r\n");
}

TEST_CASE("slip 4: a hunk one context line short is placed by its header's counts") {
    // The header says 4 old lines from line 1; the body has 3 (the blank context line after the
    // removed one is missing). The counts find the place, lines 1-4; but the added line could go
    // before or after the left-out line 2 (GNU patch guesses before): refused, naming line 2
    // (issue 40, part 1).
    const Patched p = patch("--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-\n+from __future__ import y\n from . import x\n \n",
                            "\n\nfrom . import x\n\n");
    INFO(p.error);
    CHECK(p.bytes.empty());
    CHECK(
        p.error.find("leaves out line 2 (\"\"), and its added line \"from __future__ import y\" could go before line 2 "
                     "(after line 1) or after it (before line 3)") != std::string::npos);
    CHECK(p.error.find("again with line 2 in it") != std::string::npos);
    // With that line in it, the hunk applies.
    const Patched whole =
        patch("--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-\n+from __future__ import y\n \n from . import x\n \n",
              "\n\nfrom . import x\n\n");
    CHECK(whole.error == "");
    CHECK(whole.bytes == "from __future__ import y\n\nfrom . import x\n\n");
    // Counts that agree with a body found at the stated line: the body wins, as before.
    const Patched miscounted = patch("--- a/f\n+++ b/f\n@@ -2,4 +2,4 @@\n b\n-c\n+C\n d\n", "a\nb\nc\nd\ne\n");
    CHECK(miscounted.error == "");
    CHECK(miscounted.bytes == "a\nb\nC\nd\ne\n");
}

TEST_CASE("slip 4b: a hunk whose only flaw is a missing context line applies when its place is unique") {
    const std::string file = "int f(void)\n{\n\tif (x) {\n\t\tfoo();\n\t\treturn (-1);\n\t}\n\treturn (0);\n}\n";
    // Counts recomputed for the short body: no header evidence, but one place only.
    const Patched p = patch(
        "--- a/f\n+++ b/f\n@@ -3,4 +3,4 @@\n \tif (x) {\n \t\tfoo();\n \t}\n-\treturn (0);\n+\treturn (1);\n", file);
    CHECK(p.error == "");
    CHECK(p.bytes == "int f(void)\n{\n\tif (x) {\n\t\tfoo();\n\t\treturn (-1);\n\t}\n\treturn (1);\n}\n");
    // A changed line beside the left-out line: "bar();" could go before "return (-1);" or after
    // it (a commit that removed foo() and added bar() after the return reads the same): refused.
    const Patched beside =
        patch("--- a/f\n+++ b/f\n@@ -3,4 +3,4 @@\n \tif (x) {\n-\t\tfoo();\n+\t\tbar();\n \t}\n \treturn (0);\n", file);
    INFO(beside.error);
    CHECK(beside.bytes.empty());
    CHECK(beside.error.find("leaves out line 5") != std::string::npos);
    // The hunk's own order says where added lines go around a left-out line ...
    CHECK(patch("--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n x\n-a\n+A\n-b\n+B\n y\n", "x\na\ng\nb\ny\n").bytes ==
          "x\nA\ng\nB\ny\n");
    // ... which a SEARCH/REPLACE block cannot say: its lines are paired by a diff, and refused.
    const Patched unordered =
        patch("<<<<<<< SEARCH\nx\na\nb\ny\n=======\nx\nA\nB\ny\n>>>>>>> REPLACE\n", "x\na\ng\nb\ny\n");
    CHECK(unordered.bytes.empty());
    CHECK(unordered.error.find("cannot be told") != std::string::npos);
    // An addition next to the gap could go on either side of the missing line: refused.
    const Patched unsure = patch("--- a/f\n+++ b/f\n@@ -4,3 +4,4 @@\n \t\tfoo();\n+\t\tlog();\n \t}\n", file);
    CHECK(unsure.bytes.empty());
    CHECK(unsure.error != "");
}

TEST_CASE("slip 6: fuzzy placement aligns line by line: unmentioned lines stay, none is duplicated") {
    const std::string file =
        "static int\nparse_arguments(struct arguments *args, int argc, char **argv)\n{\n"
        "\tif (argc < 2 || argv == NULL || argv[0] == NULL) {\n"
        "\t\tprint_usage_and_exit(args, \"missing arguments\");\n\t\treturn (-1);\n\t}\n"
        "\targs->argv_consumed_so_far++;\n\treturn (0);\n}\n";
    // The hunk leaves out "\t\treturn (-1);" and misspells a context line; its window of five lines
    // is similar enough, but laid there line by line it keeps the left-out line.
    const std::string diff =
        "--- a/f\n+++ b/f\n@@ -4,6 +4,6 @@\n \tif (argc < 2 || argv == NULL || argv[0] == NULL) {\n"
        " \t\tprint_usage_and_exit(args, \"missing arguments\");\n \t}\n"
        " \targs->argv_consumed_so_far ++;\n-\treturn (0);\n+\treturn (1);\n";
    const Patched p = patch(diff, file, 0.8);
    CHECK(p.error == "");
    CHECK(p.bytes ==
          "static int\nparse_arguments(struct arguments *args, int argc, char **argv)\n{\n"
          "\tif (argc < 2 || argv == NULL || argv[0] == NULL) {\n"
          "\t\tprint_usage_and_exit(args, \"missing arguments\");\n\t\treturn (-1);\n\t}\n"
          "\targs->argv_consumed_so_far++;\n\treturn (1);\n}\n");
    // Its changed line next to the left-out line could go on either side of it: refused, naming it
    // (issue 40, part 1: the fuzzy tier places added lines by the same rule).
    const std::string beside =
        "--- a/f\n+++ b/f\n@@ -4,6 +4,6 @@\n \tif (argc < 2 || argv == NULL || argv[0] == NULL) {\n"
        "-\t\tprint_usage_and_exit(args, \"missing arguments\");\n"
        "+\t\tprint_usage_and_exit(args, \"missing an argument\");\n \t}\n"
        " \targs->argv_consumed_so_far ++;\n \treturn (0);\n";
    const Patched unsure = patch(beside, file, 0.8);
    INFO(unsure.error);
    CHECK(unsure.bytes.empty());
    CHECK(unsure.error.find("it leaves out line 6 (\"\t\treturn (-1);\")") != std::string::npos);
    CHECK(unsure.error.find("before line 6 (after line 5) or after it (before line 7)") != std::string::npos);
    CHECK(unsure.error.find("again with every line as the file has it, line 6 in it") != std::string::npos);
    // A removed line that is nowhere in the file is not "applied" to some other line.
    const std::string removes_missing =
        "--- a/f\n+++ b/f\n@@ -4,6 +4,5 @@\n \tif (argc < 2 || argv == NULL || argv[0] == NULL) {\n"
        " \t\tprint_usage_and_exit(args, \"missing arguments\");\n-\t\tfree(everything_we_allocated_here);\n \t}\n"
        " \targs->argv_consumed_so_far ++;\n \treturn (0);\n";
    const Patched refused = patch(removes_missing, file, 0.8);
    CHECK(refused.bytes.empty());
    CHECK(refused.error != "");
}

TEST_CASE("not found: old_string is compared with the closest region by alignment, not by position") {
    const Edited e = edit("int a;\nint b;\nint c;\nint d;\nint e;\n", "int a;\nint b;\nint d;\nint e;", "x");
    CHECK(e.kind == text::MatchErrorKind::not_found);
    CHECK(e.error.find("The closest region is lines 1-5 (4 of 4 lines identical)") != std::string::npos);
    CHECK(e.error.find("line 3: this line of the file is missing from old_string") != std::string::npos);
    CHECK(e.error.find("line 4:") == std::string::npos);  // the lines after it are not called different
}

TEST_CASE("fuzzy near tie with a hint: refused naming both places, unless one starts at the hinted line") {
    // Issue 27 §1: three copies of a function; the SEARCH text is most like calc2 (line 101), and a
    // little less like calc1 (line 51), which is nearer the hint (71).
    std::string file;
    for (int k = 0; k < 3; ++k) {
        file += "function calc" + std::to_string(k) + "(value) {\n  // old calculation logic\n  const base = value * " +
                std::to_string(k + 2) + ";\n  return base + " + std::to_string(k) + ";\n}\n";
        for (int f = 0; f < 45; ++f) file += "// filler " + std::to_string(k) + "." + std::to_string(f) + "\n";
    }
    const std::string search =
        "function calc2(valu) {\n  // old calcluation logic\n  const base = value * 4;\n  return base + 2;\n}\n";
    const std::string replace = "function calc2(value) {\n  // new calculation logic\n  return value * 4 + 2;\n}\n";
    auto block = [&](std::string_view hint) {
        return "<<<<<<< SEARCH\n:start_line:" + std::string(hint) + "\n-------\n" + search + "=======\n" + replace +
               ">>>>>>> REPLACE\n";
    };
    const Patched tie = patch(block("71"), file, 0.9);
    CHECK(tie.bytes.empty());
    CHECK(tie.error.find("lines 51-55") != std::string::npos);
    CHECK(tie.error.find("lines 101-105") != std::string::npos);
    const Patched exact = patch(block("101"), file, 0.9);
    CHECK(exact.error == "");
    CHECK(exact.bytes.find("function calc1(value) {\n  // old calculation logic") != std::string::npos);
    CHECK(exact.bytes.find(replace) != std::string::npos);
}

TEST_CASE("not found: a line the file breaks in two is said to be broken there, both lines shown") {
    const Edited e = edit("x = 1\nresult = foo(a,\n             b)\ny = 2\n", "result = foo(a, b)", "r = foo(a, b)");
    CHECK(e.kind == text::MatchErrorKind::not_found);
    INFO(e.error);
    CHECK(e.error.find("line 2: the file breaks this line after column 15 and goes on in line 3, where old_string has "
                       "one line") != std::string::npos);
    CHECK(e.error.find("b)") != std::string::npos);
    CHECK(e.error.find("read lines 2-3") != std::string::npos);
}

TEST_CASE("slip 7: added lines beside a left-out line are placed only where the block's own lines pin them") {
    // Issue 40, part 1: the hunk leaves out ".scope" (file line 3), which sits between its added
    // lines in the real commit. ".type = CHOICE" takes the removed line's place; ".choices" could go
    // before or after line 3, and nothing in the call says which: refused, naming line 3, the two
    // places and the call that would work.
    const std::string file = "{ .name = \"x\",\n  .type = FLAG,\n  .scope = SERVER,\n  .default_num = 0,\n},\n";
    const std::string hunk =
        "@@ -1,4 +1,5 @@\n { .name = \"x\",\n-  .type = FLAG,\n+  .type = CHOICE,\n+  .choices = list,\n"
        "   .default_num = 0,\n";
    auto refused_well = [](const Patched& p) {
        INFO(p.error);
        CHECK(p.bytes.empty());
        CHECK(p.error.find("leaves out line 3 (\"  .scope = SERVER,\")") != std::string::npos);
        CHECK(p.error.find("before line 3 (after line 2) or after it (before line 4)") != std::string::npos);
        CHECK(p.error.find("with line 3 in it") != std::string::npos);
    };
    refused_well(patch("--- a/f\n+++ b/f\n" + hunk, file));
    refused_well(patch("--- a/f\n+++ b/f\n" + hunk, file, 0.8));
    refused_well(patch("--- a/f\n+++ b/f\n@@ @@\n" + hunk.substr(hunk.find('\n') + 1), file));
    refused_well(
        patch("<<<<<<< SEARCH\n{ .name = \"x\",\n  .type = FLAG,\n  .default_num = 0,\n=======\n"
              "{ .name = \"x\",\n  .type = CHOICE,\n  .choices = list,\n  .default_num = 0,\n>>>>>>> REPLACE\n",
              file));
    refused_well(
        patch("*** Begin Patch\n*** Update File: f\n@@\n { .name = \"x\",\n-  .type = FLAG,\n+  .type = CHOICE,\n"
              "+  .choices = list,\n   .default_num = 0,\n*** End Patch\n",
              file));
    // (The fuzzy tier's refusal of the same: slip 6.)

    // Sent again with line 3 in it, the hunk applies.
    const Patched full = patch(
        "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n { .name = \"x\",\n-  .type = FLAG,\n+  .type = CHOICE,\n"
        "   .scope = SERVER,\n+  .choices = list,\n   .default_num = 0,\n",
        file);
    CHECK(full.error == "");
    CHECK(full.bytes ==
          "{ .name = \"x\",\n  .type = CHOICE,\n  .scope = SERVER,\n  .choices = list,\n  .default_num = 0,\n},\n");
    // One added line for one removed line is no better pinned: "-a +A" beside a left-out line is
    // also what a commit that moved A past that line looks like.
    const Patched one_for_one = patch(
        "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n { .name = \"x\",\n-  .type = FLAG,\n"
        "+  .type = CHOICE,\n   .default_num = 0,\n",
        file);
    CHECK(one_for_one.bytes.empty());
    CHECK(one_for_one.error.find("before line 3 (after line 2) or after it (before line 4)") != std::string::npos);
    // A hunk that ends with added lines, its counts one line more on both sides than it shows: it
    // left out the line after its last one (line 4), and the added line could go on either side.
    const Patched end_left_out = patch(
        "--- a/f\n+++ b/f\n@@ -1,4 +1,5 @@\n { .name = \"x\",\n-  .type = FLAG,\n"
        "+  .type = CHOICE,\n   .scope = SERVER,\n+  .choices = list,\n",
        file);
    INFO(end_left_out.error);
    CHECK(end_left_out.bytes.empty());
    CHECK(end_left_out.error.find("it leaves out line 4 (\"  .default_num = 0,\"), and its added line \"  .choices = "
                                  "list,\" could go before line 4 (after line 3) or after it (before line 5)") !=
          std::string::npos);
    // Two ways to lay a hunk's lines onto the file: one places "A" (the second "a" goes), the other
    // would guess beside the left-out lines 3-4. Which "a" the hunk removes cannot be told: refused.
    const Patched two_ways = patch("--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n x\n-a\n+A\n y\n", "x\na\ng\na\ny\n");
    INFO(two_ways.error);
    CHECK(two_ways.bytes.empty());
    CHECK(two_ways.error.find("it leaves out lines 3-4 (\"g\", \"a\")") != std::string::npos);
    CHECK(two_ways.error.find("Send the hunk again with lines 3-4 in it") != std::string::npos);
    // The same at its start: a hunk that starts with an added line and left out line 1.
    const Patched start_left_out =
        patch("--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n+// flags\n   .type = FLAG,\n   .scope = SERVER,\n", file);
    INFO(start_left_out.error);
    CHECK(start_left_out.bytes.empty());
    CHECK(start_left_out.error.find(
              "it leaves out line 1 (\"{ .name = \"x\",\"), and its added line \"// flags\" could "
              "go before line 1 (at the start of the file) or after it (before line 2)") != std::string::npos);
    // The same in a file over 1 MiB, where an exact place near the stated line is taken fast: the
    // header's evidence is read first.
    std::string large;
    for (int i = 0; i < 80000; ++i) large += "// filler line " + std::to_string(i) + "\n";
    REQUIRE(large.size() > (std::size_t{1} << 20));
    large += file;
    const Patched large_end = patch(
        "--- a/f\n+++ b/f\n@@ -80001,4 +80001,5 @@\n { .name = \"x\",\n-  .type = FLAG,\n"
        "+  .type = CHOICE,\n   .scope = SERVER,\n+  .choices = list,\n",
        large);
    INFO(large_end.error);
    CHECK(large_end.bytes.empty());
    CHECK(large_end.error.find("it leaves out line 80004") != std::string::npos);
    // Counted as shown, the same hunk is pinned where it ends: placed.
    const Patched pinned = patch(
        "--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n { .name = \"x\",\n-  .type = FLAG,\n"
        "+  .type = CHOICE,\n   .scope = SERVER,\n+  .choices = list,\n",
        file);
    CHECK(pinned.error == "");
    CHECK(pinned.bytes == full.bytes);
    // ... and added lines between two runs that each remove lines belong to the first run (a hunk
    // lists a run's removed lines first, so a removed line after them starts the next run).
    const Patched between_removals = patch(
        "--- a/f\n+++ b/f\n@@ -2,3 +2,4 @@\n-  .type = FLAG,\n+  .type = CHOICE,\n"
        "+  .choices = list,\n-  .default_num = 0,\n+  .default_num = 1,\n",
        file);
    CHECK(between_removals.error == "");
    CHECK(between_removals.bytes ==
          "{ .name = \"x\",\n  .type = CHOICE,\n  .choices = list,\n  .scope = SERVER,\n  .default_num = 1,\n},\n");
}
