// Unit tests of the list and find tools, called in process: the outline and its bounds (per
// folder, per result), line counts, ignored paths named or (--ignore-reads) not, find's globs,
// order, bounds and newest-first sort, refusals that name the next call, cancellation.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "tests/unit/tools/fixture.hpp"
#include "text/bytes/file_facts.hpp"
#include "tools/pipeline/listing.hpp"

using namespace tools_test;

TEST_CASE("list: an indented outline, folders by path, files with size and line count (CRLF counted once)") {
    Fixture f;
    f.put("README.md", "one\ntwo\n");
    f.put("src/main.c", "int main() {\r\n  return 0;\r\n}");  // no final newline: 3 lines
    f.put("src/lib/util.c", std::string(2000, 'x') + "\n");
    f.put("data.bin", std::string("a\0b", 3));
    f.put(".env", "SECRET=1\n");
    const auto r = list(f, {{"path", f.root.string()}});
    REQUIRE_FALSE(r.is_error);
    CHECK(
        r.text ==
        "./\n"
        "  README.md  8 B, 2 lines\n"
        "  data.bin  3 B, binary\n"
        "  src/\n"
        "    src/lib/\n"
        "    main.c  28 B, 3 lines\n"
        "\n"
        "Folders at depth 2 were not opened: call list with path set to one of them, or a larger depth (at most 10).\n"
        "Left out: 1 hidden entry (include_hidden: true shows them).");
    // structuredContent alone carries the same outline (hosts like Claude Code read only it).
    CHECK(r.structured["text"] == r.text);
    CHECK(r.structured["shown"] == 5);
    CHECK(r.structured["left_out"]["hidden"] == 1);

    const auto deep = list(f, {{"path", "src"}, {"depth", 3}, {"include_hidden", true}});
    CHECK(deep.text == "src/\n  src/lib/\n    util.c  2.0 KiB, 1 line\n  main.c  28 B, 3 lines");
    // With include_hidden the dot-file shows.
    CHECK(has(list(f, {{"include_hidden", true}, {"depth", 1}}).text, "  .env  9 B, 1 line\n"));
}

TEST_CASE("list: a large folder is collapsed with counts, and one result stays under its byte budget") {
    Fixture f;
    for (int i = 0; i < 250; ++i) f.put("flat/f" + std::to_string(1000 + i) + ".txt", "x\n");
    const auto r = list(f, {{"path", "flat"}});
    REQUIRE_FALSE(r.is_error);
    CHECK(has(r.text, "  f1199.txt  2 B, 1 line\n  \xE2\x80\xA6 50 more files\n"));
    CHECK_FALSE(has(r.text, "f1200.txt"));
    CHECK(r.structured["shown"] == 200);
    CHECK(r.structured["more_files"] == 50);
    CHECK(r.structured["truncated"] == true);

    Fixture big;
    for (int d = 0; d < 40; ++d)
        for (int i = 0; i < 60; ++i)
            big.put("d" + std::to_string(100 + d) + "/a-rather-long-file-name-" + std::to_string(i) + ".txt", "");
    const auto b = list(big, Json::object());
    REQUIRE_FALSE(b.is_error);
    CHECK(b.text.size() < tools::listing_text_budget + 1024);
    CHECK(has(b.text, "Not shown: "));
    CHECK(has(b.text, "(one result stays under 32 KiB of JSON text)"));
    CHECK(b.structured["shown"].get<std::uint64_t>() + b.structured["more_files"].get<std::uint64_t>() +
              b.structured["more_folders"].get<std::uint64_t>() ==
          40 + 40 * 60);
}

TEST_CASE("list and find: ignored paths left out; named by rule, or only counted under --ignore-reads") {
    Fixture f;
    f.put(".mcp-editignore", "secret*.txt\nbuild/\n");
    f.put("secret-plan.txt", "x");
    f.put("build/out.o", "x");
    f.put("keep.txt", "x");
    os::IgnoreFiles ignore({});
    f.ctx.ignore = &ignore;
    const auto r = list(f, Json::object());
    CHECK_FALSE(has(r.text, "secret-plan"));
    CHECK_FALSE(has(r.text, "  build/\n"));
    CHECK(has(r.text,
              "Left out: 2 entries the ignore rules cover (`secret*.txt` in .mcp-editignore line 1: 1, "
              "`build/` in .mcp-editignore line 2: 1); 1 hidden entry"));
    CHECK(r.structured["left_out"]["rules"].size() == 2);
    const auto found = find(f, {{"pattern", "*.txt"}});
    CHECK(found.text.rfind("1 file matches `*.txt`:\nkeep.txt\n", 0) == 0);

    os::IgnoreSettings settings;
    settings.ignore_reads = true;
    os::IgnoreFiles strict(settings);
    f.ctx.ignore = &strict;
    const auto s = list(f, Json::object());
    CHECK(has(s.text, "Left out: 2 entries the ignore rules cover (not named: --ignore-reads)"));
    CHECK_FALSE(has(s.text, "secret"));
    CHECK_FALSE(s.structured["left_out"].contains("rules"));
    const auto refused = list(f, {{"path", "build"}});
    CHECK(refused.is_error);
    CHECK(refused.reason == base::ErrorReason::ignored);
}

TEST_CASE("list: a file, a missing path and a path outside the roots are refused with the next call") {
    Fixture f;
    f.put("a.txt", "x");
    const auto file = list(f, {{"path", "a.txt"}});
    CHECK(file.is_error);
    CHECK(has(file.text, "a.txt is a file, not a folder. Call read with file_path a.txt"));
    const auto missing = list(f, {{"path", "nope"}});
    CHECK(missing.is_error);
    CHECK(has(missing.text, "does not exist. Call list with path set to its parent folder"));
    const auto outside = list(f, {{"path", "/"}});
    CHECK(outside.is_error);
    CHECK(outside.reason == base::ErrorReason::outside_root);
    CHECK(has(outside.text, "outside the allowed roots"));
}

TEST_CASE("find: globs with **, braces and sets, names at any depth, sorted by path, bounded") {
    Fixture f;
    f.put("a.c", "");
    f.put("b.h", "");
    f.put("src/x.c", "");
    f.put("src/test/test_one.ts", "");
    f.put("src/test/deep/test_two.ts", "");
    f.put("src/test/other.ts", "");
    f.put("lib/test_three.ts", "");
    const auto any = find(f, {{"pattern", "*.c"}});
    CHECK(any.text == "2 files match `*.c`:\na.c\nsrc/x.c");
    const auto braces = find(f, {{"pattern", "*.{c,h}"}});
    CHECK(braces.text == "3 files match `*.{c,h}`:\na.c\nb.h\nsrc/x.c");
    const auto under = find(f, {{"pattern", "src/**/test_*.ts"}});
    CHECK(under.text == "2 files match `src/**/test_*.ts`:\nsrc/test/deep/test_two.ts\nsrc/test/test_one.ts");
    const auto below = find(f, {{"pattern", "test/*.ts"}, {"path", "src"}});
    CHECK(below.text == "2 files match `test/*.ts` under src:\nsrc/test/other.ts\nsrc/test/test_one.ts");
    const auto bounded = find(f, {{"pattern", "**/*.ts"}, {"max_results", 2}});
    CHECK(bounded.text ==
          "4 files match `**/*.ts`:\nlib/test_three.ts\nsrc/test/deep/test_two.ts\n"
          "\xE2\x80\xA6 2 more; narrow the pattern or the path.");
    CHECK(bounded.structured["total"] == 4);
    CHECK(bounded.structured["truncated"] == true);
    const auto none = find(f, {{"pattern", "*.py"}});
    CHECK(none.text == "No file matches `*.py`. (A pattern without `/` matches file names at any depth.)");
    CHECK(find(f, {{"pattern", "src/"}}).is_error);
    // An absolute pattern (here one outside the roots) is refused as not relative to `path`.
    const auto absolute = find(f, {{"pattern", "/etc/*"}});
    CHECK(absolute.is_error);
    CHECK(absolute.reason == base::ErrorReason::invalid_arguments);
    CHECK(has(absolute.text, "find: the pattern /etc/* must be relative to `path`"));
}

TEST_CASE("find: sort modified is newest first; a pattern naming a dot-file finds hidden files") {
    Fixture f;
    f.put("old.txt", "1");
    f.put("new.txt", "22");
    f.put("mid.txt", "333");
    const auto now = fs::last_write_time(f.root / "old.txt");
    fs::last_write_time(f.root / "old.txt", now - std::chrono::hours(48));
    fs::last_write_time(f.root / "mid.txt", now - std::chrono::hours(24));
    const auto r = find(f, {{"pattern", "*.txt"}, {"sort", "modified"}, {"max_results", 2}});
    CHECK(r.structured["shown"] == 2);
    CHECK(has(r.text, "newest first"));
    CHECK(has(r.text, ":\nnew.txt  "));
    CHECK(has(r.text, "  2 B\nmid.txt  "));
    CHECK(has(r.text, "  3 B\n\xE2\x80\xA6 1 more; narrow"));
    CHECK(r.structured["text"] == r.text);

    f.put("conf/.env", "x");
    CHECK(find(f, {{"pattern", "*.env"}}).structured["total"] == 0);
    CHECK(find(f, {{"pattern", "**/.env"}}).text == "1 file matches `**/.env`:\nconf/.env");
}

TEST_CASE("list and find: a cancelled call stops the walk and says so") {
    Fixture f;
    for (int i = 0; i < 50; ++i) f.put("d/f" + std::to_string(i), "");
    f.ctx.scope.cancelled->store(true);
    const auto l = list(f, Json::object());
    CHECK(l.is_error);
    CHECK(l.reason == base::ErrorReason::cancelled);
    const auto r = find(f, {{"pattern", "**/*"}});
    CHECK(r.is_error);
    CHECK(r.reason == base::ErrorReason::cancelled);
}

#ifndef _WIN32
TEST_CASE("list and find: a file name that is not UTF-8 is quoted as git quotes it (octal escapes)") {
    Fixture f;
    f.put("caf\xE9.txt", "x\r\ny\r\n");
    const auto l = list(f, Json::object());
    CHECK(has(l.text, "  \"caf\\351.txt\"  6 B, 2 lines"));
    const auto r = find(f, {{"pattern", "caf*"}});
    CHECK(r.structured["text"] == "1 file matches `caf*`:\n\"caf\\351.txt\"");
}
#endif

TEST_CASE(
    "fit_structured_text: the JSON stays under 45,000 characters; the body is cut at a line end, the notes kept") {
    std::string body;
    for (int i = 0; i < 2000; ++i)
        body += "line \"" + std::to_string(i) + "\" with \\ and \t and \x01 and caf\xC3\xA9\n";
    const std::string notes = "Not shown: 12 more files. Call list with path set to a folder.";
    Json structured = {{"path", "."}, {"shown", 2000}};
    const std::string text = tools::fit_structured_text(structured, body, notes, "narrow the path.");
    CHECK(structured.dump().size() <= tools::max_structured_json);
    CHECK(structured.dump().size() > tools::max_structured_json - 200);  // cut no more than it must
    CHECK(structured["text"] == text);
    CHECK(text.rfind("line \"0\"", 0) == 0);
    CHECK(has(text,
              " more lines of this result cut: its JSON stays under 45,000 characters; narrow the path.\n\n" + notes));
    CHECK(text.substr(text.size() - notes.size()) == notes);

    // Notes alone over half the room are cut too, on a character boundary.
    std::string long_notes;
    for (int i = 0; i < 3000; ++i) long_notes += "caf\xC3\xA9\\\"";
    Json other = {{"path", "."}};
    const std::string cut = tools::fit_structured_text(other, body, long_notes, "narrow the path.");
    CHECK(other.dump().size() <= tools::max_structured_json);
    CHECK(cut.substr(cut.size() - 3) == "\xE2\x80\xA6");
    CHECK(text::is_valid_utf8(cut));

    // A small result is left whole.
    Json small = {{"path", "."}};
    CHECK(tools::fit_structured_text(small, "a\nb\n", "note", "x") == "a\nb\n\nnote");
    CHECK(tools::json_escaped_size("a\"\\\t\x01\xC3\xA9") == Json("a\"\\\t\x01\xC3\xA9").dump().size() - 2);
}

#ifndef _WIN32
namespace {

// A long file name with characters JSON escapes (quote, backslash, tab): about 2x its bytes in JSON.
std::string escaped_name(int i) {
    return "n\"q\\b\tt-" + std::string(60, '"') + std::string(60, '\\') + "-" + std::to_string(i) + ".txt";
}

}  // namespace

TEST_CASE("list and find: 20,000 files with long names that JSON escapes stay under 45,000 characters of JSON") {
    Fixture f;
    for (int d = 0; d < 20; ++d)
        for (int i = 0; i < 1000; ++i) f.put("dir\"\\" + std::to_string(d) + "/" + escaped_name(i), "");
    const auto l = list(f, {{"depth", 3}});
    REQUIRE_FALSE(l.is_error);
    INFO("list JSON: " << l.structured.dump().size());
    CHECK(l.structured.dump().size() < tools::max_structured_json);
    CHECK(l.structured["text"] == l.text);
    CHECK(has(l.text, "\xE2\x80\xA6 "));
    const std::string last = l.text.substr(l.text.rfind('\n') + 1);
    CHECK(last.rfind("Not shown: ", 0) == 0);
    CHECK(has(last,
              " more files and 18 folders within depth 3 (one result stays under 32 KiB of JSON text). To see "
              "them, call list with path set to one of the folders above"));

    const auto r = find(f, {{"pattern", "**/*.txt"}, {"max_results", 5000}, {"sort", "modified"}});
    REQUIRE_FALSE(r.is_error);
    INFO("find JSON: " << r.structured.dump().size());
    CHECK(r.structured.dump().size() < tools::max_structured_json);
    CHECK(r.structured["text"] == r.text);
    CHECK(r.text.rfind("20,000 files match `**/*.txt`, newest first:\n", 0) == 0);
    const std::string tail = r.text.substr(r.text.rfind('\n') + 1);
    CHECK(tail == "\xE2\x80\xA6 " + base::with_commas(20000 - r.structured["shown"].get<std::uint64_t>()) +
                      " more; narrow the pattern or the path (one result stays under 32 KiB of JSON text).");
}
#endif
