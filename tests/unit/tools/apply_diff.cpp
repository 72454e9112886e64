// Unit tests of the apply_diff tool, called in process: what a patch relies on having been seen
// (a pure insertion placed by line number, a deletion), and several names of one file in one
// patch (hard links, a symlink and its target, other spellings) applied as one file.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "os/hash.hpp"
#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

// ---- stale: apply_diff ------------------------------------------------------------------------

TEST_CASE("apply_diff: *** Delete File: of a file never read, or changed since, is refused") {
    Fixture f;
    f.put("gone.txt", "keep me\n");
    const std::string patch = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n";
    auto r = f.apply_diff(patch);
    CHECK(r.is_error);
    CHECK(has(r.text,
              "Refused: this session has not read gone.txt, and the patch deletes it without showing its content"));
    CHECK(has(r.text, "It has 1 line now (sha256 " + os::sha256_hex("keep me\n") + ")."));
    CHECK(fs::exists(f.root / "gone.txt"));
    CHECK_FALSE(f.read("gone.txt").is_error);
    f.put("gone.txt", "keep me\nand me\n");
    r = f.apply_diff(patch);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: gone.txt changed on disk since this session last read or wrote it"));
    CHECK(fs::exists(f.root / "gone.txt"));
    CHECK_FALSE(f.read("gone.txt").is_error);
    r = f.apply_diff(patch);
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(fs::exists(f.root / "gone.txt"));
}

TEST_CASE("apply_diff: a deletion that shows the content it deletes needs no read (the content is checked)") {
    Fixture f;
    f.put("gone.txt", "a\nb\n");
    const auto r = f.apply_diff("--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
    CHECK_FALSE(r.is_error);
    CHECK_FALSE(fs::exists(f.root / "gone.txt"));
}

TEST_CASE("apply_diff: the summary's first sentence says how many files the patch deletes and creates (issue 39)") {
    Fixture f;
    f.put("one.txt", "1\n");
    f.put("two.txt", "2\n");
    f.put("kept.txt", "k\n");
    const auto r = f.apply_diff(
        "--- a/one.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-1\n--- a/two.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-2\n"
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n--- a/kept.txt\n+++ b/kept.txt\n@@ -1 +1 @@\n-k\n+K\n");
    CHECK_FALSE(r.is_error);
    CHECK(has(r.text, "Applied the patch to 4 files (2 deleted, 1 created; unified, 4 blocks, +2 -3)."));
}

TEST_CASE("apply_diff: a hunk placed by line number alone needs the file read and unchanged; context hunks do not") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    const std::string by_number = "--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+new\n";
    auto r = f.apply_diff(by_number);
    CHECK(r.is_error);
    CHECK(has(r.text,
              "Refused: this session has not read a.txt, and the patch places lines by line number alone (hunk 1 after "
              "line 2;"));
    CHECK(f.get("a.txt") == "one\ntwo\nthree\n");
    // Located by its context lines: no read needed.
    r = f.apply_diff("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n");
    CHECK_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "one\nTWO\nthree\n");
    // Written by this session: known.
    r = f.apply_diff(by_number);
    CHECK_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "one\nTWO\nnew\nthree\n");
    f.put("a.txt", "zero\none\nTWO\nnew\nthree\n");
    r = f.apply_diff(by_number);
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: a.txt changed on disk since this session last read or wrote it"));
    CHECK(has(r.text, "It has 5 lines now"));
}

// ---- one file under several names in one patch ------------------------------------------------

TEST_CASE("apply_diff: sections for two hard links of one file are applied together, both changes kept") {
    Fixture f;
    f.put("a.txt", "1\n2\n3\n4\n5\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    const auto r = f.apply_diff(
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-1\n+ONE\n 2\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -3,2 +3,2 @@\n 3\n-4\n+FOUR\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("a.txt") == "ONE\n2\n3\nFOUR\n5\n");
    CHECK(f.get("b.txt") == "ONE\n2\n3\nFOUR\n5\n");
#ifndef _WIN32  // Wine counts every file's links as 1
    CHECK(fs::hard_link_count(f.root / "a.txt") == 2);
#endif
    CHECK(r.structured["files"].size() == 1);
    CHECK(r.structured["blocks_applied"] == 2);
    CHECK(has(r.text,
              "Applied the patch to 1 file (unified, 2 blocks, +2 -2). a.txt and b.txt are one file (hard links): "
              "their sections were applied together, on its one content."));
}

#ifndef _WIN32  // mingw's std::filesystem cannot create symlinks
TEST_CASE("apply_diff: a symlink and its target in one patch are one file") {
    Fixture f;
    f.put("real.txt", "alpha\nbeta\ngamma\ndelta\n");
    fs::create_symlink(f.root / "real.txt", f.root / "link.txt");
    const auto r = f.apply_diff(
        "--- a/link.txt\n+++ b/link.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n"
        "--- a/real.txt\n+++ b/real.txt\n@@ -4 +4 @@\n-delta\n+DELTA\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("real.txt") == "ALPHA\nbeta\ngamma\nDELTA\n");
    CHECK(fs::is_symlink(f.root / "link.txt"));
    CHECK(has(r.text, "link.txt and real.txt are one file (a symlink or another spelling of its path)"));
}
#endif

TEST_CASE("apply_diff: another spelling of one path in one patch is one file") {
    Fixture f;
    f.put("dir/a.txt", "x\ny\nz\n");
    const auto r = f.apply_diff(
        "--- a/dir/a.txt\n+++ b/dir/a.txt\n@@ -1 +1 @@\n-x\n+X\n"
        "--- a/dir/../dir/a.txt\n+++ b/dir/../dir/a.txt\n@@ -3 +3 @@\n-z\n+Z\n");
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("dir/a.txt") == "X\ny\nZ\n");
}

TEST_CASE("apply_diff: overlapping sections of hard links are refused as an overlap, nothing written") {
    Fixture f;
    f.put("a.txt", "1\n2\n3\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    const auto r = f.apply_diff(
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+ONE\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-1\n+uno\n");
    CHECK(r.is_error);
    CHECK(has(r.text, "overlaps"));
    CHECK(f.get("a.txt") == "1\n2\n3\n");
}

TEST_CASE("apply_diff: a hard link deleted or created beside a change of its other name is refused") {
    Fixture f;
    f.put("a.txt", "1\n2\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    CHECK_FALSE(f.read("b.txt").is_error);
    const auto r =
        f.apply_diff("*** Begin Patch\n*** Update File: a.txt\n@@\n-1\n+ONE\n*** Delete File: b.txt\n*** End Patch\n");
    CHECK(r.is_error);
    CHECK(has(r.text,
              "its sections for a.txt and b.txt name one file (hard links: the same device and inode), and one of them "
              "deletes it."));
    CHECK(f.get("a.txt") == "1\n2\n");
    CHECK(fs::exists(f.root / "b.txt"));
}
