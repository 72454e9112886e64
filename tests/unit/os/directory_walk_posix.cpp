// Unit tests of os/directory_walk on a real temp tree: sorted depth-first order, the depth and
// per-folder bounds, symlinks in and out of the roots and loops, ignore rules and `.git`, an
// unreadable folder, deep nesting, stop and cancellation.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "os/directory_walk.hpp"

namespace fs = std::filesystem;

namespace {

struct Tree {
    fs::path base;  // holds root/ and outside/
    std::string root;
    Tree() {
        std::string pattern = (fs::temp_directory_path() / "mcp-edit-walk-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        base = fs::canonical(pattern);
        fs::create_directories(base / "root");
        fs::create_directories(base / "outside");
        root = (base / "root").string();
        platform::hold_directory(root);
    }
    ~Tree() {
        std::error_code ec;
        fs::permissions(base / "root" / "locked", fs::perms::owner_all, ec);
        fs::remove_all(base, ec);
    }
    void put(const std::string& relative, const std::string& text = "x") const {
        const fs::path p = base / "root" / relative;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
    }
    void dir(const std::string& relative) const { fs::create_directories(base / "root" / relative); }
    void link(const std::string& relative, const fs::path& target) const {
        fs::create_symlink(target, base / "root" / relative);
    }
};

const char* kind_name(os::EntryKind k) {
    return k == os::EntryKind::file ? "f" : k == os::EntryKind::directory ? "d" : "o";
}
const char* link_name(os::LinkKind k) {
    switch (k) {
        case os::LinkKind::none: return "";
        case os::LinkKind::inside: return " ->in";
        case os::LinkKind::outside: return " ->out";
        case os::LinkKind::broken: return " ->broken";
        case os::LinkKind::loop: return " ->loop";
    }
    return "";
}

struct Recorder : os::WalkVisitor {
    std::vector<std::string> seen;
    std::vector<std::string> unreadable;
    std::vector<std::string> left;
    std::string stop_at;
    std::string skip;
    std::atomic<bool>* cancel_after_first = nullptr;
    os::WalkStep entry(const os::WalkEntry& e) override {
        std::string line = std::string(e.path) + " " + kind_name(e.kind) + link_name(e.link);
        if (e.kind == os::EntryKind::file && e.stat_known) line += " " + std::to_string(e.size);
        if (e.ignored)
            line += " ignored:" + (e.ignored->kind == os::IgnoreRefusal::Kind::git_directory ? std::string(".git")
                                                                                             : e.ignored->rule);
        seen.push_back(line);
        if (cancel_after_first) *cancel_after_first = true;
        if (e.path == stop_at) return os::WalkStep::stop;
        if (e.path == skip) return os::WalkStep::skip;
        return os::WalkStep::go_on;
    }
    void leave_folder(std::string_view path, std::size_t depth, std::uint64_t unread) override {
        left.push_back(std::string(path) + "@" + std::to_string(depth) + "+" + std::to_string(unread));
    }
    void unreadable_folder(std::string_view path, std::string_view why) override {
        unreadable.push_back(std::string(path) + ": " + std::string(why));
    }
};

os::WalkSummary walk(const Tree& t, const os::Workspace& ws, Recorder& r, os::IgnoreFiles* ignore = nullptr,
                     std::size_t depth = 64, const std::string& start = "") {
    os::WalkOptions options;
    options.start = start.empty() ? t.root : t.root + "/" + start;
    options.workspace = &ws;
    options.ignore = ignore;
    options.max_depth = depth;
    return os::walk_directory(options, r);
}

}  // namespace

TEST_CASE("directory walk: depth first, sorted by name per folder, sizes, `.git` left out, depth bound") {
    Tree t;
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
    CHECK(shallow.seen == std::vector<std::string>{".git d ignored:.git", ".hidden f 1", "C.md f 1", "a d", "b.txt f 5"});

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

TEST_CASE("directory walk: symlinks inside the roots followed, outside and broken ones not, loops entered once") {
    Tree t;
    t.put("real/inner.txt", "abc");
    t.put("file.txt", "1234");
    std::ofstream(t.base / "outside" / "secret.txt") << "outside";
    t.link("to_file", t.base / "root" / "file.txt");
    t.link("to_real", t.base / "root" / "real");
    t.link("to_out", t.base / "outside");
    t.link("to_out_file", t.base / "outside" / "secret.txt");
    t.link("dangling", t.base / "root" / "nothing");
    t.link("real/up", t.base / "root");  // a loop back to the root
    os::Workspace ws({t.root});
    Recorder r;
    walk(t, ws, r);
    CHECK(r.seen == std::vector<std::string>{
                        "dangling o ->broken", "file.txt f 4", "real d", "real/inner.txt f 3", "real/up d ->loop",
                        "to_file f ->in 4", "to_out o ->out", "to_out_file o ->out", "to_real d ->in",
                        "to_real/inner.txt f 3", "to_real/up d ->loop"});
    for (const auto& line : r.seen) CHECK(line.find("secret") == std::string::npos);
}

TEST_CASE("directory walk: ignore rules leave entries out (flagged, folders not entered), from a start below the root too") {
    Tree t;
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
        CHECK(r.seen == std::vector<std::string>{
                            ".gitignore f 6", ".mcp-editignore f 13", "build d ignored:build/", "key.pem f 1 ignored:*.pem",
                            "src d", "src/.mcp-editignore f 10", "src/drop.pem f 1 ignored:*.pem", "src/keep.pem f 1",
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
        CHECK(ignore.refuse_listing(t.root, t.root + "/.git/info", true)->kind == os::IgnoreRefusal::Kind::git_directory);
        CHECK_FALSE(ignore.refuse_listing(t.root, t.root + "/src", true).has_value());
    }
}

TEST_CASE("directory walk: a folder swapped for a symlink to outside after it was listed is not entered") {
    Tree t;
    t.put("sub/inside.txt");
    std::ofstream(t.base / "outside" / "secret.txt") << "outside";
    os::Workspace ws({t.root});
    struct Swapper : Recorder {
        const Tree* tree = nullptr;
        os::WalkStep entry(const os::WalkEntry& e) override {
            if (e.path == "sub") {
                fs::rename(tree->base / "root" / "sub", tree->base / "root" / "sub.hold");
                fs::create_directory_symlink(tree->base / "outside", tree->base / "root" / "sub");
            }
            return Recorder::entry(e);
        }
    } r;
    r.tree = &t;
    walk(t, ws, r);
    CHECK(r.seen == std::vector<std::string>{"sub d"});
    REQUIRE(r.unreadable.size() == 1);
    CHECK(r.unreadable[0] == "sub: it changed while the walk reached it (replaced by a symlink or a file)");
}

TEST_CASE("directory walk: an unreadable folder is reported and the walk goes on") {
    Tree t;
    if (::geteuid() == 0) {  // root reads any folder: only a non-root run can see EACCES
        MESSAGE("skipped: running as root");
        return;
    }
    t.put("locked/x.txt");
    t.put("open/y.txt");
    fs::permissions(t.base / "root" / "locked", fs::perms::none);
    os::Workspace ws({t.root});
    Recorder r;
    const auto summary = walk(t, ws, r);
    CHECK(r.seen == std::vector<std::string>{"locked d", "open d", "open/y.txt f 1"});
    REQUIRE(r.unreadable.size() == 1);
    CHECK(r.unreadable[0] == "locked: Permission denied");
    CHECK(summary.unreadable == 1);
}

TEST_CASE("directory walk: deep nesting stops at max_depth; per-folder bound counts the rest") {
    Tree t;
    std::string deep;
    for (int i = 0; i < 120; ++i) deep += (i ? "/d" : "d");
    t.dir(deep);
    for (int i = 0; i < 8; ++i) t.put("many/f" + std::to_string(i));
    os::Workspace ws({t.root});
    Recorder r;
    walk(t, ws, r, nullptr, 100);
    std::size_t deepest = 0;
    for (const auto& line : r.seen) deepest = std::max<std::size_t>(deepest, std::count(line.begin(), line.end(), '/') + 1);
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

TEST_CASE("directory walk: skip, stop and cancellation") {
    Tree t;
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
