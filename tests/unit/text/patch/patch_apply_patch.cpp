// Unit tests of the *** Begin Patch reader: add, update with move and anchors, delete, end of file,
// fences, merged updates and malformed envelopes.
#include <doctest/doctest.h>

#include <string>

#include "parse_error.hpp"
#include "text/patch/patch_apply_patch.hpp"
#include "text/patch/patch_detect.hpp"

using test_text::parse_error;
using text::FileAction;
using text::PatchFormat;

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
          "Nothing was changed." +
              format);
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n-x\n+y\n") ==
          "Malformed *** Begin Patch envelope: the patch has no \"*** End Patch\" line; it may have been cut short, "
          "so nothing was applied. Send the whole patch, ending with \"*** End Patch\". Nothing was changed." +
              format);
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n-x\nplain\n*** End Patch\n") ==
          "Malformed *** Begin Patch envelope at line 4: in \"*** Update File: a\", every line after the \"@@\" "
          "starts with ' ' (context), '-' (removed) or '+' (added); found \"plain\". Nothing was changed." +
              format);
    CHECK(parse_error("*** Begin Patch\n*** Add File: n\nno plus\n*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope at line 3: every line of a file added with \"*** Add "
                           "File:\" starts "
                           "with '+' (the line \"no plus\" does not)."));
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope at line 2: \"*** Update File: a\" has no changes"));
    CHECK(parse_error("*** Begin Patch\n*** Frobnicate: a\n*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope at line 2: expected \"*** Add File: PATH\", \"*** "
                           "Update File: PATH\", "
                           "\"*** Delete File: PATH\" or \"*** End Patch\", found \"*** Frobnicate: a\"."));
    CHECK(parse_error("*** Begin Patch\n*** Update File: a\n*** Move to: b\n-x\n+y\n*** Update File: a\n-p\n+q\n"
                      "*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope at line 6: a appears twice in the patch (also at "
                           "line 2)"));
    CHECK(parse_error("*** Begin Patch\n*** Delete File: a\n*** Add File: a\n+x\n*** End Patch\n")
              .starts_with(
                  "Malformed *** Begin Patch envelope at line 3: a appears twice in the patch (also at line 2)"));
    CHECK(parse_error("*** Begin Patch\n*** End Patch\n")
              .starts_with("Malformed *** Begin Patch envelope: the patch holds no file operation."));
}
