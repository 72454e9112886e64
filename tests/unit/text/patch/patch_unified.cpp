// Unit tests of the unified-diff reader: git and GNU headers, quoted names, counts right and wrong,
// no-newline markers, merged sections and errors.
#include <doctest/doctest.h>

#include <string>

#include "parse_error.hpp"
#include "text/patch/patch_detect.hpp"
#include "text/patch/patch_unified.hpp"

using test_text::parse_error;
using text::FileAction;
using text::PatchFormat;

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
          "Malformed unified diff at line 3: the patch is a binary change to img.png, and apply_diff changes text "
          "files only. Nothing was changed.");
    // Among text sections: which lines to leave out so that the next call applies the rest.
    CHECK(parse_error("diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"
                      "diff --git a/img.png b/img.png\nindex 1..2 100644\nGIT binary patch\nliteral 5\nMcmZ?wbYNg$0\n\n"
                      "diff --git a/c.txt b/c.txt\n--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-c\n+d\n") ==
          "Malformed unified diff at line 9: lines 7-12 are a binary change to img.png, and apply_diff changes text "
          "files only. Send the patch again without lines 7-12 to apply its text changes. Nothing was changed.");
    CHECK(parse_error("--- /dev/null\n+++ b/n.txt\n@@ -1 +1 @@\n-a\n+b\n") ==
          "Malformed unified diff at line 3: the hunk creates n.txt (--- /dev/null), so it can only have '+' lines; "
          "it has context or '-' lines. Nothing was changed.");
    CHECK(parse_error("--- a/x\n+++ b/x\n@@ -1 +1 @@\nnot a hunk line\n") ==
          "Malformed unified diff at line 3: the hunk has no lines: a hunk header must be followed by its context "
          "(' '), removed ('-') and added ('+') lines. Nothing was changed.");
    CHECK(parse_error("@@ @@\n+only added\n")
              .starts_with(
                  "Malformed unified diff at line 1: the hunk only adds lines and its header gives no line numbers"));
    CHECK(parse_error("--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+b\n") ==
          "Malformed unified diff at line 5: x appears twice in the diff (also at line 1); give each file one section "
          "with all of its hunks. Nothing was changed.");
    CHECK(
        parse_error("diff --git a/x b/x\nold mode 100644\nnew mode 100755\n")
            .starts_with(
                "Malformed unified diff: the diff has no hunks (no line starting with \"@@\"), so there is nothing to "
                "apply."));
}
