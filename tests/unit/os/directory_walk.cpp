// Unit tests of os/directory_walk on a real temp tree, on every platform: sorted depth-first
// order, the depth and per-folder bounds, ignore rules and `.git`, deep nesting, stop and
// cancellation. Symlinks, a swapped folder and an unreadable one: directory_walk_posix.cpp.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/unit/os/directory_walk_fixture.hpp"

using namespace walk_test;

TEST_CASE("directory walk: depth first, sorted by name per folder, sizes, `.git` left out, depth bound") {
    WalkTree t;
    t.put("b.txt", "hello");
    t.put("a/z.c", "12");
    t.put("a/m/deep.c");
    t.put("C.md");
    t.put(".git/HEAD");
    t.put(".hidden");
    os::Workspace ws({t.root});
    Recorder r;
    const auto summary = walk(t, ws, r);
    CHECK(r.seen == std::vector<std::string>{".git d ignored:.git", ".hidden f 1", "C.md f 1", "a d", "a/m d",
                                             "a/m/deep.c f 1", "a/z.c f 2", "b.txt f 5"});
    CHECK(r.left == std::vector<std::string>{"a/m@2+0", "a@1+0", "@0+0"});
    CHECK(summary.entries == 8);
    CHECK_FALSE(summary.cancelled);

    Recorder shallow;
    walk(t, ws, shallow, nullptr, 1);
    CHECK(shallow.seen ==
          std::vector<std::string>{".git d ignored:.git", ".hidden f 1", "C.md f 1", "a d", "b.txt f 5"});

    os::WalkOptions options;
    options.start = t.root;
    options.workspace = &ws;
    options.include_hidden = false;
    options.stat_files = false;
    Recorder visible;
    const auto s2 = os::walk_directory(options, visible);
    CHECK(visible.seen == std::vector<std::string>{".git d ignored:.git", "C.md f", "a d", "a/m d", "a/m/deep.c f",
                                                   "a/z.c f", "b.txt f"});
    CHECK(s2.hidden == 1);
}

TEST_CASE(
    "directory walk: ignore rules leave entries out (flagged, folders not entered), from a start below the root too") {
    WalkTree t;
    t.put(".mcp-editignore", "*.pem\nbuild/\n");
    t.put(".gitignore", "*.log\n");
    t.put("src/.mcp-editignore", "!keep.pem\n");
    t.put("src/keep.pem");
    t.put("src/drop.pem");
    t.put("src/run.log");
    t.put("build/out.o");
    t.put("key.pem");
    os::Workspace ws({t.root});
    {
        os::IgnoreFiles ignore({});
        Recorder r;
        walk(t, ws, r, &ignore);
        CHECK(r.seen == std::vector<std::string>{".gitignore f 6", ".mcp-editignore f 13", "build d ignored:build/",
                                                 "key.pem f 1 ignored:*.pem", "src d", "src/.mcp-editignore f 10",
                                                 "src/drop.pem f 1 ignored:*.pem", "src/keep.pem f 1",
                                                 "src/run.log f 1"});
    }
    {
        os::IgnoreSettings settings;
        settings.respect_gitignore = true;
        os::IgnoreFiles ignore(settings);
        Recorder r;
        walk(t, ws, r, &ignore, 64, "src");
        CHECK(r.seen == std::vector<std::string>{".mcp-editignore f 10", "drop.pem f 1 ignored:*.pem", "keep.pem f 1",
                                                 "run.log f 1 ignored:*.log"});
        CHECK(ignore.refuse_listing(t.root, t.root + "/build/sub", true).has_value());
        CHECK(ignore.refuse_listing(t.root, t.root + "/.git/info", true)->kind ==
              os::IgnoreRefusal::Kind::git_directory);
        CHECK_FALSE(ignore.refuse_listing(t.root, t.root + "/src", true).has_value());
    }
}

TEST_CASE("directory walk: deep nesting stops at max_depth; per-folder bound counts the rest") {
    WalkTree t;
    std::string deep;
    for (int i = 0; i < 120; ++i) deep += (i ? "/d" : "d");
    t.dir(deep);
    for (int i = 0; i < 8; ++i) t.put("many/f" + std::to_string(i));
    os::Workspace ws({t.root});
    Recorder r;
    walk(t, ws, r, nullptr, 100);
    std::size_t deepest = 0;
    for (const auto& line : r.seen)
        deepest = std::max<std::size_t>(deepest, std::count(line.begin(), line.end(), '/') + 1);
    CHECK(deepest == 100);

    os::WalkOptions options;
    options.start = t.root + "/many";
    options.workspace = &ws;
    options.max_entries_per_folder = 5;
    Recorder bounded;
    const auto summary = os::walk_directory(options, bounded);
    CHECK(bounded.seen.size() == 5);
    CHECK(bounded.left == std::vector<std::string>{"@0+3"});
    CHECK(summary.unread == 3);
}

TEST_CASE("directory walk: the caps it reaches are counted and their folders named (depth, entries per folder)") {
    WalkTree t;
    t.dir("a/b/c/d");
    t.put("a/x/y/f");
    t.dir("a/b2/c2/d2");
    for (int i = 0; i < 8; ++i) t.put("many/f" + std::to_string(i));
    os::Workspace ws({t.root});
    Recorder r;
    auto s = walk(t, ws, r, nullptr, 3);
    CHECK(s.too_deep == 3);  // a/b/c, a/b2/c2 and a/x/y: listed, not entered
    CHECK(s.too_deep_paths == std::vector<std::string>{"a/b/c", "a/b2/c2", "a/x/y"});
    CHECK(s.capped());
    Recorder whole;
    s = walk(t, ws, whole, nullptr, 4);
    CHECK(s.too_deep == 2);  // a/b/c/d and a/b2/c2/d2 are at the bound: not entered (empty or not)
    s = walk(t, ws, whole);
    CHECK(s.too_deep == 0);
    CHECK_FALSE(s.capped());
    // A folder the visitor skips is not a cap reached.
    Recorder skipping;
    skipping.skip = "a";
    CHECK(walk(t, ws, skipping, nullptr, 1).too_deep == 1);  // "many" at depth 1, wanted
    CHECK(walk(t, ws, skipping, nullptr, 1).too_deep_paths == std::vector<std::string>{"many"});

    os::WalkOptions options;
    options.start = t.root;
    options.workspace = &ws;
    options.max_entries_per_folder = 5;
    Recorder bounded;
    s = os::walk_directory(options, bounded);
    CHECK(s.crowded == 1);
    CHECK(s.crowded_paths == std::vector<std::string>{"many"});
    CHECK(s.unread == 3);
    CHECK(s.capped());
}

TEST_CASE("directory walk: skip, stop and cancellation") {
    WalkTree t;
    t.put("a/1");
    t.put("b/2");
    t.put("c/3");
    os::Workspace ws({t.root});
    Recorder r;
    r.skip = "a";
    r.stop_at = "b/2";
    const auto summary = walk(t, ws, r);
    CHECK(r.seen == std::vector<std::string>{"a d", "b d", "b/2 f 1"});
    CHECK(summary.stopped);

    std::atomic<bool> cancelled{false};
    os::WalkOptions options;
    options.start = t.root;
    options.workspace = &ws;
    options.cancelled = &cancelled;
    Recorder c;
    c.cancel_after_first = &cancelled;
    const auto s2 = os::walk_directory(options, c);
    CHECK(c.seen.size() == 1);
    CHECK(s2.cancelled);
}
