// Unit tests of text::plan_file_patch on the apply_patch envelope: @@ anchors and End of File,
// chunks in order, moves (also from unified diffs), add and delete.
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

TEST_CASE("plan apply_patch: @@ anchors pick the occurrence after them; End of File the last one") {
    const std::string file =
        "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
        "class B:\n    def run(self):\n        x = 1\n        return x\n";
    const std::string patch =
        "*** Begin Patch\n*** Update File: app.py\n@@ class B:\n@@     def run(self):\n-        x = 1\n+        x = 2\n"
        "*** End Patch\n";
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    CHECK(o.bytes ==
          "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
          "class B:\n    def run(self):\n        x = 2\n        return x\n");
    CHECK(o.blocks[0].line == 8);

    const std::string eof =
        "*** Begin Patch\n*** Update File: app.py\n-        return x\n+        return -x\n*** End of File\n*** End "
        "Patch\n";
    CHECK(plan_and_apply(eof, file).bytes ==
          "class A:\n    def run(self):\n        x = 1\n        return x\n\n"
          "class B:\n    def run(self):\n        x = 1\n        return -x\n");

    const std::string nothing =
        "*** Begin Patch\n*** Update File: app.py\n-        x = 1\n+        x = 2\n*** End Patch\n";
    const Outcome ambiguous = plan_and_apply(nothing, file);
    CHECK(ambiguous.error ==
          "Chunk 1 (line 3 of the patch) could not be applied to app.py: The chunk matches 2 places in app.py "
          "(starting at lines 3, 8). Put an @@ line before the chunk with a line of the file that comes before the "
          "place meant (such as the first line of its function), or include more context lines.\nNothing was "
          "changed.");
}

TEST_CASE("plan apply_patch: chunks in order, insertions after an anchor or at the end") {
    const std::string file = "def f():\n    pass\n\ndef g():\n    pass\n";
    const std::string patch =
        "*** Begin Patch\n*** Update File: m.py\n"
        "@@ def f():\n-    pass\n+    return 1\n"
        "@@\n-    pass\n+    return 2\n"      // the second "    pass": after the previous chunk
        "@@ def g():\n+    \"\"\"g.\"\"\"\n"  // only added lines: right after the anchor
        "@@\n+# end\n"                        // no anchor: at the end
        "*** End Patch\n";
    const Outcome o = plan_and_apply(patch, file);
    REQUIRE(o.error == "");
    CHECK(o.bytes == "def f():\n    return 1\n\ndef g():\n    \"\"\"g.\"\"\"\n    return 2\n# end\n");
    REQUIRE(o.blocks.size() == 4);
    CHECK(o.blocks[2].match == text::BlockMatch::inserted);
    CHECK(o.blocks[2].line == 5);
    CHECK(o.blocks[3].line == 6);
}

TEST_CASE("plan apply_patch and unified: a move carries its new name, with or without changes") {
    const Outcome moved =
        plan_and_apply("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-x\n+y\n*** End Patch\n",
                       std::string_view("x\n"));
    REQUIRE(moved.error == "");
    CHECK(moved.bytes == "y\n");
    CHECK(moved.move_to == std::optional<std::string>("b.txt"));
    const Outcome renamed = plan_and_apply(
        "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to "
        "b.txt\n",
        std::string_view("same\r\n"));
    REQUIRE(renamed.error == "");
    CHECK(renamed.bytes == "same\r\n");
    CHECK(renamed.move_to == std::optional<std::string>("b.txt"));
    CHECK(renamed.blocks.empty());
}

TEST_CASE("plan apply_patch: add and delete, with CRLF kept in updates") {
    const std::string patch =
        "*** Begin Patch\n*** Add File: n.txt\n+one\n+two\n*** Update File: w.txt\n@@\n a\n-b\n+B\n*** Delete File: d\n"
        "*** End Patch\n";
    CHECK(plan_and_apply(patch, std::nullopt, 1.0, 0).bytes == "one\ntwo\n");
    CHECK(plan_and_apply(patch, std::string_view("a\r\nb\r\n"), 1.0, 1).bytes == "a\r\nB\r\n");
    const Outcome d = plan_and_apply(patch, std::string_view("whatever"), 1.0, 2);
    CHECK(d.error == "");
    CHECK(d.action == text::FileAction::remove);
    const Outcome missing_anchor = plan_and_apply(
        "*** Begin Patch\n*** Update File: w\n@@ def nowhere():\n+x\n*** End Patch\n", std::string_view("a\n"));
    CHECK(missing_anchor.error ==
          "Chunk 1 (line 3 of the patch) could not be applied to w: its @@ line \"def nowhere():\" matches no line "
          "of w, so there is no place to add its lines. Copy the @@ line exactly from the file, or add context "
          "lines.\nNothing was changed.");
}
