// Unit tests of the apply_diff readers: format detection, SEARCH/REPLACE blocks (escapes, malformed
// blocks and their messages), unified diffs (git and GNU headers, counts, markers), apply_patch.
#include <doctest/doctest.h>

#include <string>

#include "text/patch_apply_patch.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_search_replace.hpp"
#include "text/patch_unified.hpp"

using text::FileAction;
using text::PatchFormat;

namespace {

std::string format_of(std::string_view patch) {
    auto f = text::detect_patch_format(patch);
    return f.ok() ? text::to_string(f.value()) : "ERROR";
}

// The error message of a patch that must not parse.
std::string parse_error(std::string_view patch) {
    auto p = text::parse_patch(patch);
    REQUIRE_FALSE(p.ok());
    return p.error().message;
}

const std::string kSrFormat = std::string("\n") + text::kSearchReplaceFormat;

}  // namespace

TEST_CASE("patch format: detected from the first distinctive line") {
    CHECK(format_of("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n") == "search_replace");
    CHECK(format_of("intro text\n<<<<<<< SEARCH\n--- a\n+++ b\n=======\n>>>>>>> REPLACE") == "search_replace");
    CHECK(format_of("*** Begin Patch\n*** Delete File: x\n*** End Patch\n") == "apply_patch");
    CHECK(format_of("*** Update File: x\n@@\n-a\n+b\n") == "apply_patch");
    CHECK(format_of("diff --git a/x b/x\n") == "unified");
    CHECK(format_of("--- x\t2024-01-01\n+++ x\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n") == "unified");
    CHECK(format_of("@@ -3,2 +3,2 @@\n a\n-b\n+c\n") == "unified");
    CHECK(format_of("@@ @@\n-a\n+b\n") == "unified");
    CHECK(format_of("@@\n a\n") == "unified");
    CHECK(format_of("@@ note\nplain text\n") == "ERROR");
    CHECK(format_of("--- just a rule\nnot a header\n") == "ERROR");

    auto none = text::detect_patch_format("please change foo to bar");
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.starts_with(
        "The diff is in no format apply_diff knows. Nothing was changed. Send one of these:\n"
        "1. SEARCH/REPLACE blocks (the file is given by file_path):\n<<<<<<< SEARCH\n"));
    CHECK(none.error().message.find("*** Begin Patch\n*** Update File: PATH\n") != std::string::npos);
    auto empty = text::detect_patch_format("");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message.starts_with("The diff is empty. Nothing was changed."));
}

TEST_CASE("search/replace: blocks with :start_line:, :end_line:, separators and their patch lines") {
    const std::string patch =
        "Here is the change:\n"
        "<<<<<<< SEARCH\n"
        ":start_line:12\n"
        ":end_line:13\n"
        "-------\n"
        "  old one\n"
        "  old two\n"
        "=======\n"
        "  new one\n"
        ">>>>>>> REPLACE\n"
        "\n"
        "<<<<<<< SEARCH\n"
        "remove me\n"
        "=======\n"
        ">>>>>>> REPLACE\n";
    auto p = text::parse_search_replace(patch);
    REQUIRE(p.ok());
    CHECK(p->format == PatchFormat::search_replace);
    CHECK(p->block_count == 2);
    REQUIRE(p->files.size() == 1);
    const text::FilePatch& f = p->files[0];
    CHECK(f.path.empty());
    CHECK(f.action == FileAction::update);
    REQUIRE(f.blocks.size() == 2);
    CHECK(f.blocks[0].index == 1);
    CHECK(f.blocks[0].patch_line == 2);
    CHECK(f.blocks[0].start_line == 12u);
    CHECK(f.blocks[0].end_line == 13u);
    CHECK(f.blocks[0].old_text == "  old one\n  old two\n");
    CHECK(f.blocks[0].new_text == "  new one\n");
    CHECK(f.blocks[1].index == 2);
    CHECK(f.blocks[1].patch_line == 12);
    CHECK_FALSE(f.blocks[1].start_line.has_value());
    CHECK(f.blocks[1].old_text == "remove me\n");
    CHECK(f.blocks[1].new_text == "");
}

TEST_CASE("search/replace: escaped markers lose their backslash; CRLF patches read as LF") {
    const std::string patch =
        "<<<<<<< SEARCH\r\n"
        "\\<<<<<<< HEAD\r\n"
        "\\=======\r\n"
        "\\>>>>>>> branch\r\n"
        "\\-------\r\n"
        "\\:start_line:3\r\n"
        "\\not a marker\r\n"
        "=======\r\n"
        "\\=======\r\n"
        ">>>>>>> REPLACE\r\n";
    auto p = text::parse_patch(patch);
    REQUIRE(p.ok());
    const text::PatchBlock& b = p->files[0].blocks[0];
    CHECK(b.old_text == "<<<<<<< HEAD\n=======\n>>>>>>> branch\n-------\n:start_line:3\n\\not a marker\n");
    CHECK(b.new_text == "=======\n");
    CHECK_FALSE(b.start_line.has_value());
}

TEST_CASE("search/replace: malformed blocks quote the offending line and show the format") {
    CHECK(parse_error("<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 5: a second \"=======\" in the block that starts at line 1 (its "
          "first is at line 3). If the REPLACE text contains a line \"=======\", write it as \"\\=======\"; "
          "otherwise end the block with \">>>>>>> REPLACE\" first. Nothing was changed." + kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 3: \">>>>>>> REPLACE\" before the \"=======\" of the block that "
          "starts at line 1: the SEARCH and REPLACE parts must be separated by a line \"=======\". Nothing was "
          "changed." + kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:4\n-------\n=======\nnew\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 4: the SEARCH part of the block that starts at line 1 is empty. "
          "SEARCH must hold the exact lines to replace, copied from the file; to add lines, put a neighbouring "
          "line in SEARCH and again in REPLACE next to the new ones. Nothing was changed." + kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\n   \n\n=======\nnew\n>>>>>>> REPLACE\n").starts_with(
        "Malformed SEARCH/REPLACE diff at line 4: the SEARCH part of the block that starts at line 1 is empty."));
    CHECK(parse_error("<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 5: \"<<<<<<< SEARCH\" inside the block that "
                           "starts at line 1: that block is missing its \">>>>>>> REPLACE\" line."));
    CHECK(parse_error("<<<<<<< SEARCH\na\n<<<<<<< SEARCH\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: \"<<<<<<< SEARCH\" inside the block that "
                           "starts at line 1: that block is missing its \"=======\" and \">>>>>>> REPLACE\" lines."));
    CHECK(parse_error("x\n<<<<<<< SEARCH\na\n=======\nb\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 2: the block that starts at line 2 has no "
                           "\">>>>>>> REPLACE\": the diff ends inside its REPLACE part (after the \"=======\" at "
                           "line 4)."));
    CHECK(parse_error("<<<<<<< SEARCH\na\nb\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 1: the block that starts at line 1 has no "
                           "\"=======\" and no \">>>>>>> REPLACE\": the diff ends inside its SEARCH part."));
    CHECK(text::parse_search_replace("=======\n>>>>>>> REPLACE\n").error().message.starts_with(
        "Malformed SEARCH/REPLACE diff at line 1: found \"=======\" outside a block: a block must start with "
        "\"<<<<<<< SEARCH\" before its \"=======\" and \">>>>>>> REPLACE\"."));
    CHECK(parse_error("<<<<<<< SEARCH\n-------\n:start_line:5\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: \":start_line:5\" comes after the \"-------\" "
                           "of the block that starts at line 1: :start_line: and :end_line: go right after "
                           "\"<<<<<<< SEARCH\", before \"-------\""));
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:x\n-------\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 2: \":start_line:x\" must give a line number of 1 "
                           "or more, as in \":start_line:12\"."));
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:1\n:start_line:2\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: the block that starts at line 1 gives "
                           ":start_line: twice."));
    auto p = text::parse_patch("<<<<<<< SEARCH\na\n=======\nb\n=======\n>>>>>>> REPLACE\n");
    CHECK(p.error().patch_line == 5);
}

TEST_CASE("unified: a git diff of several files: update, create, delete, rename, mode change") {
    const std::string patch =
        "Commit message text is ignored\n"
        "diff --git a/src/main.c b/src/main.c\n"
        "index 1111111..2222222 100644\n"
        "--- a/src/main.c\n"
        "+++ b/src/main.c\n"
        "@@ -10,3 +10,4 @@ int main(void)\n"
        " keep\n"
        "-old\n"
        "+new\n"
        "+added\n"
        " tail\n"
        "@@ -40,0 +42,1 @@\n"
        "+inserted after 40\n"
        "diff --git a/docs/new.md b/docs/new.md\n"
        "new file mode 100644\n"
        "index 0000000..3333333\n"
        "--- /dev/null\n"
        "+++ b/docs/new.md\n"
        "@@ -0,0 +1,2 @@\n"
        "+# Title\n"
        "+text\n"
        "\\ No newline at end of file\n"
        "diff --git a/gone.txt b/gone.txt\n"
        "deleted file mode 100644\n"
        "--- a/gone.txt\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-bye\n"
        "diff --git a/old name.txt b/new name.txt\n"
        "similarity index 100%\n"
        "rename from old name.txt\n"
        "rename to new name.txt\n"
        "diff --git a/script.sh b/script.sh\n"
        "old mode 100644\n"
        "new mode 100755\n"
        "diff --git a/empty b/empty\n"
        "new file mode 100644\n"
        "index 0000000..e69de29\n";
    auto p = text::parse_patch(patch);
    REQUIRE(p.ok());
    CHECK(p->format == PatchFormat::unified);
    CHECK(p->block_count == 4);
    REQUIRE(p->files.size() == 5);

    const text::FilePatch& main = p->files[0];
    CHECK(main.path == "src/main.c");
    CHECK(main.action == FileAction::update);
    CHECK(main.patch_line == 2);
    REQUIRE(main.blocks.size() == 2);
    CHECK(main.blocks[0].index == 1);
    CHECK(main.blocks[0].patch_line == 6);
    CHECK(main.blocks[0].start_line == 10u);
    CHECK(main.blocks[0].old_text == "keep\nold\ntail\n");
    CHECK(main.blocks[0].new_text == "keep\nnew\nadded\ntail\n");
    CHECK_FALSE(main.blocks[0].final_newline.has_value());
    CHECK(main.blocks[1].start_line == 40u);  // a pure addition goes after line 40
    CHECK(main.blocks[1].old_text == "");
    CHECK(main.blocks[1].new_text == "inserted after 40\n");

    const text::FilePatch& created = p->files[1];
    CHECK(created.path == "docs/new.md");
    CHECK(created.action == FileAction::create);
    REQUIRE(created.blocks.size() == 1);
    CHECK(created.blocks[0].new_text == "# Title\ntext\n");
    CHECK(created.blocks[0].final_newline == false);

    CHECK(p->files[2].path == "gone.txt");
    CHECK(p->files[2].action == FileAction::remove);
    CHECK(p->files[2].blocks[0].old_text == "bye\n");

    CHECK(p->files[3].path == "old name.txt");
    CHECK(p->files[3].action == FileAction::update);
    CHECK(p->files[3].move_to == std::optional<std::string>("new name.txt"));
    CHECK(p->files[3].blocks.empty());

    CHECK(p->files[4].path == "empty");  // the mode change of script.sh is no FilePatch
    CHECK(p->files[4].action == FileAction::create);
    CHECK(p->files[4].blocks.empty());
}

TEST_CASE("unified: GNU headers with timestamps, quoted git names, bare hunks, wrong and missing counts") {
    auto gnu = text::parse_unified_diff(
        "--- lib/util.py\t2024-05-01 10:00:00.000000000 +0200\n"
        "+++ lib/util.py\t2024-05-02 11:00:00.000000000 +0200\n"
        "@@ -1,2 +1,2 @@\n"
        " def f():\n"
        "-    return 1\n"
        "+    return 2\n");
    REQUIRE(gnu.ok());
    CHECK(gnu->files[0].path == "lib/util.py");
    CHECK(gnu->files[0].blocks[0].old_text == "def f():\n    return 1\n");

    auto quoted = text::parse_unified_diff(
        "diff --git \"a/t\\303\\251st\\tx\" \"b/t\\303\\251st\\tx\"\n"
        "--- \"a/t\\303\\251st\\tx\"\n"
        "+++ \"b/t\\303\\251st\\tx\"\n"
        "@@ -1 +1 @@\n"
        "-a\n"
        "+b\n");
    REQUIRE(quoted.ok());
    CHECK(quoted->files[0].path == "t\xC3\xA9st\tx");

    // No file header: one FilePatch with an empty path; counts too large, too small, or missing.
    auto bare = text::parse_unified_diff(
        "@@ -5,9 +5,9 @@\n"
        " a\n"
        "-b\n"
        "+B\n"
        "\n"
        "@@ -20,1 +20,1 @@\n"
        " c\n"
        "-d\n"
        "+D\n"
        " e\n"
        "@@ @@\n"
        " f\n"
        "\n"
        "-g\n"
        "+G\n"
        "\n");
    REQUIRE(bare.ok());
    REQUIRE(bare->files.size() == 1);
    const text::FilePatch& f = bare->files[0];
    CHECK(f.path.empty());
    REQUIRE(f.blocks.size() == 3);
    CHECK(f.blocks[0].old_text == "a\nb\n\n");  // the empty line is context while the counts run
    CHECK(f.blocks[0].new_text == "a\nB\n\n");
    CHECK(f.blocks[1].old_text == "c\nd\ne\n");  // past the count, hunk lines still belong to it
    CHECK(f.blocks[1].start_line == 20u);
    CHECK(f.blocks[2].old_text == "f\n\ng\n");  // no counts: an empty line between hunk lines is context
    CHECK(f.blocks[2].new_text == "f\n\nG\n");
    CHECK_FALSE(f.blocks[2].start_line.has_value());
}

TEST_CASE("unified: the counts decide when '---' and '+++' are removed and added lines") {
    auto p = text::parse_unified_diff(
        "--- a/q.sql\n"
        "+++ b/q.sql\n"
        "@@ -1,2 +1,2 @@\n"
        "--- old comment\n"
        "+++ new comment\n"
        " select 1;\n"
        "-- \n"
        "2.39.0\n");
    REQUIRE(p.ok());
    REQUIRE(p->files.size() == 1);
    CHECK(p->files[0].blocks[0].old_text == "-- old comment\nselect 1;\n");
    CHECK(p->files[0].blocks[0].new_text == "++ new comment\nselect 1;\n");
}

TEST_CASE("unified: no-newline markers, merged sections, and errors") {
    auto p = text::parse_unified_diff(
        "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
        "--- a/f\n+++ b/f\n@@ -9 +9 @@\n-x\n+y\n\\ No newline at end of file\n");
    REQUIRE(p.ok());
    REQUIRE(p->files.size() == 1);  // the two sections of f are one FilePatch
    REQUIRE(p->files[0].blocks.size() == 2);
    CHECK(p->files[0].blocks[0].final_newline == true);  // the old side had none, the new one has one
    CHECK(p->files[0].blocks[0].at_end_of_file);
    CHECK(p->files[0].blocks[1].final_newline == false);
    CHECK(p->files[0].blocks[1].index == 2);

    CHECK(parse_error("diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png "
                      "differ\n") ==
          "Malformed unified diff at line 3: binary patches cannot be applied; apply_diff changes text files only. "
          "Use write to give a file its whole new content. Nothing was changed.");
    CHECK(parse_error("--- /dev/null\n+++ b/n.txt\n@@ -1 +1 @@\n-a\n+b\n") ==
          "Malformed unified diff at line 3: the hunk creates n.txt (--- /dev/null), so it can only have '+' lines; "
          "it has context or '-' lines. Nothing was changed.");
    CHECK(parse_error("--- a/x\n+++ b/x\n@@ -1 +1 @@\nnot a hunk line\n") ==
          "Malformed unified diff at line 3: the hunk has no lines: a hunk header must be followed by its context "
          "(' '), removed ('-') and added ('+') lines. Nothing was changed.");
    CHECK(parse_error("@@ @@\n+only added\n").starts_with(
        "Malformed unified diff at line 1: the hunk only adds lines and its header gives no line numbers"));
    CHECK(parse_error("--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+b\n") ==
          "Malformed unified diff at line 5: x appears twice in the diff (also at line 1); give each file one section "
          "with all of its hunks. Nothing was changed.");
    CHECK(parse_error("diff --git a/x b/x\nold mode 100644\nnew mode 100755\n").starts_with(
        "Malformed unified diff: the diff has no hunks (no line starting with \"@@\"), so there is nothing to "
        "apply."));
}

TEST_CASE("apply_patch: add, update with move and anchors, delete, end of file, inside ``` fences") {
    const std::string patch =
        "```\n"
        "*** Begin Patch\n"
        "*** Add File: docs/hello.txt\n"
        "+Hello\n"
        "+\n"
        "+world\n"
        "*** Update File: src/app.py\n"
        "*** Move to: src/main.py\n"
        "@@ class B:\n"
        "@@     def run(self):\n"
        "-        x = 1\n"
        "+        x = 2\n"
        "         return x\n"
        "\n"
        "@@\n"
        " tail\n"
        "+more\n"
        "*** End of File\n"
        "*** Delete File: old.txt\n"
        "*** Update File: src/other.py\n"
        "-z\n"
        "+Z\n"
        "*** End Patch\n"
        "```\n";
    auto p = text::parse_patch(patch);
    REQUIRE(p.ok());
    CHECK(p->format == PatchFormat::apply_patch);
    CHECK(p->block_count == 4);
    REQUIRE(p->files.size() == 4);

    CHECK(p->files[0].action == FileAction::create);
    CHECK(p->files[0].path == "docs/hello.txt");
    CHECK(p->files[0].blocks[0].new_text == "Hello\n\nworld\n");

    const text::FilePatch& u = p->files[1];
    CHECK(u.action == FileAction::update);
    CHECK(u.path == "src/app.py");
    CHECK(u.move_to == std::optional<std::string>("src/main.py"));
    REQUIRE(u.blocks.size() == 2);
    CHECK(u.blocks[0].index == 2);
    CHECK(u.blocks[0].patch_line == 9);
    CHECK(u.blocks[0].anchors == std::vector<std::string>{"class B:", "    def run(self):"});
    CHECK(u.blocks[0].old_text == "        x = 1\n        return x\n");  // the blank line before @@ is dropped
    CHECK(u.blocks[0].new_text == "        x = 2\n        return x\n");
    CHECK(u.blocks[0].after_previous);
    CHECK_FALSE(u.blocks[0].at_end_of_file);
    CHECK(u.blocks[1].anchors.empty());
    CHECK(u.blocks[1].old_text == "tail\n");
    CHECK(u.blocks[1].new_text == "tail\nmore\n");
    CHECK(u.blocks[1].at_end_of_file);

    CHECK(p->files[2].action == FileAction::remove);
    CHECK(p->files[2].path == "old.txt");
    CHECK(p->files[2].blocks.empty());
    CHECK(p->files[3].path == "src/other.py");
    CHECK(p->files[3].blocks[0].patch_line == 21);
}

TEST_CASE("apply_patch: updates of one file are merged; malformed envelopes are errors") {
    auto merged = text::parse_apply_patch(
        "*** Begin Patch\n*** Update File: a\n-x\n+y\n*** Update File: a\n@@ top\n-p\n+q\n*** End Patch\n");
    REQUIRE(merged.ok());
    REQUIRE(merged->files.size() == 1);
    CHECK(merged->files[0].blocks.size() == 2);

    const std::string format = std::string("\n") + text::kApplyPatchFormat;
    CHECK(parse_error("*** Update File: a\n-x\n+y\n*** End Patch\n") ==
          "Malformed *** Begin Patch envelope at line 1: the patch must start with the line \"*** Begin Patch\". "
          "Nothing was changed." + format);
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n-x\n+y\n") ==
          "Malformed *** Begin Patch envelope: the patch has no \"*** End Patch\" line; it may have been cut short, "
          "so nothing was applied. Send the whole patch, ending with \"*** End Patch\". Nothing was changed." + format);
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n-x\nplain\n*** End Patch\n") ==
          "Malformed *** Begin Patch envelope at line 4: in \"*** Update File: a\", every line after the \"@@\" "
          "starts with ' ' (context), '-' (removed) or '+' (added); found \"plain\". Nothing was changed." + format);
    CHECK(parse_error("*** Begin Patch\n*** Add File: n\nno plus\n*** End Patch\n").starts_with(
        "Malformed *** Begin Patch envelope at line 3: every line of a file added with \"*** Add File:\" starts "
        "with '+' (the line \"no plus\" does not)."));
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n*** End Patch\n").starts_with(
        "Malformed *** Begin Patch envelope at line 2: \"*** Update File: a\" has no changes"));
    CHECK(parse_error("*** Begin Patch\n*** Frobnicate: a\n*** End Patch\n").starts_with(
        "Malformed *** Begin Patch envelope at line 2: expected \"*** Add File: PATH\", \"*** Update File: PATH\", "
        "\"*** Delete File: PATH\" or \"*** End Patch\", found \"*** Frobnicate: a\"."));
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n*** Move to: b\n-x\n+y\n*** Update File: a\n-p\n+q\n"
                      "*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope at line 6: a appears twice in the patch (also at "
                           "line 2)"));
    CHECK(parse_error("*** Begin Patch\n*** Delete File: a\n*** Add File: a\n+x\n*** End Patch\n").starts_with(
        "Malformed *** Begin Patch envelope at line 3: a appears twice in the patch (also at line 2)"));
    CHECK(parse_error("*** Begin Patch\n*** End Patch\n").starts_with(
        "Malformed *** Begin Patch envelope: the patch holds no file operation."));
}
