// Unit tests of list, find and grep under attack (issue 39): a file hard-linked to an ignored one is
// not read under --ignore-reads, caps reached (depth, entries, lines the pattern gave up on) say so
// and set complete false, and names with newlines, CR or escapes are quoted so that no entry forges another.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"
#include "tools/pipeline/listing.hpp"

using namespace tools_test;

namespace {

// `levels` folders d/d/.../d, the deepest holding target.txt.
std::string deep_path(int levels) {
    std::string p;
    for (int i = 0; i < levels; ++i) p += "d/";
    return p + "target.txt";
}

}  // namespace

#ifndef _WIN32
TEST_CASE("grep and list: a file hard-linked to an ignored file is not read under --ignore-reads") {
    Fixture f;
    f.put(".mcp-editignore", "*.pem\n");
    f.put("secret.pem", "SECRET-PEM-CONTENT\n");
    f.put("plain.txt", "CONTENT in the open\n");
    fs::create_hard_link(f.root / "secret.pem", f.root / "notes.txt");
    os::IgnoreSettings settings;
    settings.ignore_reads = true;
    os::IgnoreFiles strict(settings);
    f.ctx.ignore = &strict;

    const auto r = grep(f, {{"pattern", "CONTENT"}});
    REQUIRE_FALSE(r.is_error);
    CHECK_FALSE(has(r.text, "SECRET-PEM"));
    CHECK_FALSE(has(r.structured.dump(), "SECRET-PEM"));
    CHECK(has(r.text, "plain.txt\n1:CONTENT in the open"));
    CHECK(
        has(r.text, "Not searched: 1 file with other names (hard links), which --ignore-reads keeps from being read"));
    CHECK(r.structured["matches"] == 1);
    CHECK(r.structured["complete"] == false);
    // Named as the path: refused as `read` refuses it.
    const auto named = grep(f, {{"pattern", "CONTENT"}, {"path", "notes.txt"}});
    CHECK(named.is_error);
    CHECK(named.reason == base::ErrorReason::ignored);
    CHECK(has(named.text, "notes.txt has 1 other name (hard links)"));
    CHECK_FALSE(has(named.text, "SECRET-PEM"));

    // list shows its size (the entry's own) but no line count read from its bytes.
    const auto l = list(f, Json::object());
    CHECK(has(l.text, "  notes.txt  19 B, other names (hard links): not read\n"));
    CHECK(has(l.text, "Line counts not shown for 1 file with other names (hard links)"));

    // Without --ignore-reads the same file is searched: the test above is about the rule.
    f.ctx.ignore = nullptr;
    CHECK(has(grep(f, {{"pattern", "CONTENT"}}).text, "notes.txt\n1:SECRET-PEM-CONTENT"));
    CHECK(has(list(f, Json::object()).text, "  notes.txt  19 B, 1 line\n"));
}
#endif

TEST_CASE("find and grep: a file past the depth limit is not silently missed: complete false, the folder named") {
    Fixture f;
    f.put(deep_path(70), "NEEDLE\n");
    f.put("top.txt", "NEEDLE\n");
    const std::string cut_at = deep_path(64).substr(0, deep_path(64).size() - std::string("/target.txt").size());

    const auto r = find(f, {{"pattern", "target.txt"}});
    REQUIRE_FALSE(r.is_error);
    CHECK(r.structured["complete"] == false);
    CHECK(has(r.text, "No file matches `target.txt`."));
    CHECK(has(r.text, "Incomplete: 1 folder 64 levels down was not entered (the depth limit): " + cut_at +
                          ". Call find with path set to one of them to see below it."));
    // The call the text names finds it.
    const auto below = find(f, {{"pattern", "**/target.txt"}, {"path", cut_at}});
    CHECK(below.structured["total"] == 1);
    CHECK(below.structured["complete"] == true);

    const auto g = grep(f, {{"pattern", "NEEDLE"}});
    REQUIRE_FALSE(g.is_error);
    CHECK(g.structured["matches"] == 1);
    CHECK(g.structured["complete"] == false);
    CHECK(has(g.text,
              "Incomplete: 1 folder 64 levels down was not entered (the depth limit): " + cut_at + ". Call grep"));
    CHECK(grep(f, {{"pattern", "NEEDLE"}, {"path", cut_at}}).structured["matches"] == 1);

    // A path pattern without ** stops at its own depth: that is no cap.
    const auto shallow = find(f, {{"pattern", "d/*.txt"}});
    CHECK(shallow.structured["complete"] == true);
    CHECK_FALSE(has(shallow.text, "Incomplete"));
    // And a tree within the limit is complete.
    Fixture small;
    small.put("a/b/c.txt", "NEEDLE\n");
    CHECK(find(small, {{"pattern", "*.txt"}}).structured["complete"] == true);
    CHECK(grep(small, {{"pattern", "NEEDLE"}}).structured["complete"] == true);
    CHECK(list(small, Json::object()).structured["complete"] == true);
}

TEST_CASE(
    "walk_caps_text: folders with more entries than are read and links not followed are said, with the call to make") {
    Fixture f;
    f.put("big/x", "");
    tools::ListingStart start;
    start.folder.display = ".";
    os::WalkSummary summary;
    CHECK(tools::walk_caps_text(summary, start, 64, true, "find").empty());
    summary.crowded = 1;
    summary.unread = 23;
    summary.crowded_paths = {"big"};
    summary.links_not_followed = 2;
    const std::string text = tools::walk_caps_text(summary, start, 64, true, "grep");
    CHECK(
        text ==
        "Incomplete: 1 folder holds more than 100,000 entries; 23 entries past those were not read: big. Call grep on "
        "smaller folders, or narrow the pattern.\n"
        "Incomplete: 2 symlinks to folders were not followed (at most 65,536 are followed in one call). Call grep with "
        "path set to a folder below them.");
    summary = {};
    summary.too_deep = 5;
    summary.too_deep_paths = {"a/b", "a/c", "x\ny"};
    CHECK(tools::walk_caps_text(summary, start, 2, false, "list").empty());  // the caller's own depth: said elsewhere
    CHECK(
        tools::walk_caps_text(summary, start, 2, true, "find") ==
        "Incomplete: 5 folders 2 levels down were not entered (the depth limit): a/b, a/c, \"x\\ny\", and 2 more. Call "
        "find with path set to one of them to see below it.");
}

TEST_CASE("grep: the lines a pattern gave up on are named by file and line, and complete is false") {
    Fixture f;
    const std::string bad = std::string(60, 'a') + "!";
    f.put("a.txt", bad + "\naa\n" + bad + "\n");
    const auto r = grep(f, {{"pattern", "^(a|aa)+$"}});
    REQUIRE_FALSE(r.is_error);
    CHECK(r.structured["matches"] == 1);
    CHECK(r.structured["complete"] == false);
    CHECK(has(r.text,
              "The pattern gave up (too much backtracking) on 2 lines, which were not searched: a.txt:1, a.txt:3."));
}

#ifndef _WIN32  // names with control characters
TEST_CASE("list, find and grep: names with newlines, CR and escapes are quoted: no entry forges another") {
    Fixture f;
    const std::string evil = "evil\n5:forged match";
    f.put(evil, "NEEDLE\n");
    f.put("esc\x1b[2Kname\r.txt", "NEEDLE\n");
    f.put("odd\ndir/inner.txt", "NEEDLE\n");
    f.put("plain.txt", "NEEDLE\n");

    const auto g = grep(f, {{"pattern", "NEEDLE"}});
    REQUIRE_FALSE(g.is_error);
    CHECK(g.text ==
          "4 matching lines in 4 files under . (4 files searched):\n"
          "\"esc\\033[2Kname\\r.txt\"\n1:NEEDLE\n\n"
          "\"evil\\n5:forged match\"\n1:NEEDLE\n\n"
          "\"odd\\ndir/inner.txt\"\n1:NEEDLE\n\n"
          "plain.txt\n1:NEEDLE");
    CHECK(g.structured["files"][1]["path"] == "\"evil\\n5:forged match\"");

    const auto found = find(f, {{"pattern", "**/*"}});
    CHECK(found.text ==
          "4 files match `**/*`:\n\"esc\\033[2Kname\\r.txt\"\n\"evil\\n5:forged "
          "match\"\n\"odd\\ndir/inner.txt\"\nplain.txt");

    const auto l = list(f, {{"depth", 2}});
    CHECK(has(l.text, "  \"evil\\n5:forged match\"  7 B, 1 line\n"));
    CHECK(has(l.text, "  \"odd\\ndir\"/\n    inner.txt  7 B, 1 line\n"));
    for (const auto& r : {g, found, l})
        for (const char c : r.text) CHECK((c == '\n' || static_cast<unsigned char>(c) >= 0x20));  // no raw CR or ESC

    // The quoted form is a JSON string of the name: passed back as such, it names the file.
    const std::string shown = g.structured["files"][1]["path"].get<std::string>();
    const auto read = f.call(tools::read_handler(), {{"file_path", Json::parse(shown).get<std::string>()}});
    CHECK_FALSE(read.is_error);
    CHECK(has(read.text, "NEEDLE"));
    // Passed back exactly as shown, quotes and escapes included, it names the file too, whatever the
    // escape (ESC is \033 there, which JSON does not have).
    for (const char* as_shown :
         {"\"evil\\n5:forged match\"", "\"esc\\033[2Kname\\r.txt\"", "\"odd\\ndir/inner.txt\""}) {
        CAPTURE(as_shown);
        const auto again = f.call(tools::read_handler(), {{"file_path", as_shown}});
        CHECK_FALSE(again.is_error);
        CHECK(has(again.text, "NEEDLE"));
    }
    // A file whose name really is quoted is that file.
    f.put("\"plain.txt\"", "QUOTED\n");
    CHECK(has(f.call(tools::read_handler(), {{"file_path", "\"plain.txt\""}}).text, "QUOTED"));
    // grep on the folder and on the file by their names.
    CHECK(grep(f, {{"pattern", "NEEDLE"}, {"path", "odd\ndir"}}).text ==
          "1 matching line in 1 file under \"odd\\ndir\" (1 file searched):\n\"odd\\ndir/inner.txt\"\n1:NEEDLE");
    CHECK(has(grep(f, {{"pattern", "NEEDLE"}, {"path", evil}}).text, "under \"evil\\n5:forged match\""));
}
#endif
