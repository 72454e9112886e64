// Unit tests of os/ignore_files: ignore files found from the root down, .gitignore only when
// asked, .git folders and the ignore files themselves never written, reads refused only with
// --ignore-reads, and a changed ignore file read again.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "os/ignore_files.hpp"
#include "os/system_paths.hpp"

namespace fs = std::filesystem;

namespace {

struct IgnoreTree {
    fs::path base;
    std::string root;
    IgnoreTree() {
        static int counter = 0;
        base = fs::temp_directory_path() / ("mcp-edit-ignore-" + std::to_string(counter++) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(base / "sub" / "deep");
        fs::create_directories(base / ".git" / "info");
        root = *os::real_path(base.generic_string());
    }
    ~IgnoreTree() {
        std::error_code ignored;
        fs::remove_all(base, ignored);
    }
    void put(const std::string& relative, const std::string& text) const {
        std::ofstream(base / fs::path(relative), std::ios::binary) << text;
    }
    std::string real(const std::string& relative) const { return root + "/" + relative; }
};

std::string said(const std::optional<os::IgnoreRefusal>& r) {
    if (!r) return "";
    return r->ignored_path + "|" + r->rule + "|" + r->file + "|" + std::to_string(r->line);
}

}  // namespace

TEST_CASE("ignore files: the root's and nested files, by their rules, with file and line") {
    IgnoreTree t;
    t.put(".mcp-editignore", "# secrets\n*.pem\nsub/generated/\n");
    t.put("sub/.mcp-editignore", "!ok.pem\n/local.cfg\n");
    os::IgnoreFiles ignore({});
    CHECK(said(ignore.refuse_write(t.root, t.real("key.pem"))) == "key.pem|*.pem|.mcp-editignore|2");
    CHECK(said(ignore.refuse_write(t.root, t.real("sub/deep/a.pem"))) == "sub/deep/a.pem|*.pem|.mcp-editignore|2");
    CHECK(said(ignore.refuse_write(t.root, t.real("sub/ok.pem"))) == "");
    CHECK(said(ignore.refuse_write(t.root, t.real("sub/generated/x.c"))) ==
          "sub/generated|sub/generated/|.mcp-editignore|3");
    CHECK(said(ignore.refuse_write(t.root, t.real("sub/local.cfg"))) ==
          "sub/local.cfg|/local.cfg|sub/.mcp-editignore|2");
    CHECK(said(ignore.refuse_write(t.root, t.real("main.c"))) == "");
    CHECK(said(ignore.refuse_write(t.root, t.root)) == "");
}

TEST_CASE("ignore files: .git is never written, nor are the ignore files; reads need --ignore-reads") {
    IgnoreTree t;
    t.put(".mcp-editignore", "*.pem\n");
    os::IgnoreFiles ignore({});
    auto git = ignore.refuse_write(t.root, t.real(".git/config"));
    REQUIRE(git);
    CHECK(git->kind == os::IgnoreRefusal::Kind::git_directory);
    CHECK(git->ignored_path == ".git");
    CHECK(ignore.refuse_write(t.root, t.real("sub/.git"))->kind == os::IgnoreRefusal::Kind::git_directory);
    CHECK(ignore.refuse_write(t.root, t.real("sub/.mcp-editignore"))->kind == os::IgnoreRefusal::Kind::ignore_file);
    CHECK_FALSE(ignore.refuse_write(t.root, t.real(".gitignore")));
    CHECK_FALSE(ignore.refuse_read(t.root, t.real("key.pem")));
    CHECK_FALSE(ignore.refuse_read(t.root, t.real(".git/config")));

    os::IgnoreSettings reads;
    reads.ignore_reads = true;
    os::IgnoreFiles strict(reads);
    CHECK(said(strict.refuse_read(t.root, t.real("key.pem"))) == "key.pem|*.pem|.mcp-editignore|1");
}

TEST_CASE("ignore files: .gitignore and .git/info/exclude count only with --respect-gitignore") {
    IgnoreTree t;
    t.put(".gitignore", "node_modules/\n");
    t.put(".git/info/exclude", "scratch.txt\n");
    t.put(".mcp-editignore", "!sub/keep.txt\n");
    t.put("sub/.gitignore", "keep.txt\n");
    os::IgnoreFiles plain({});
    CHECK_FALSE(plain.refuse_write(t.root, t.real("node_modules/x/index.js")));
    os::IgnoreSettings git;
    git.respect_gitignore = true;
    os::IgnoreFiles respecting(git);
    CHECK(said(respecting.refuse_write(t.root, t.real("node_modules/x/index.js"))) ==
          "node_modules|node_modules/|.gitignore|1");
    CHECK(said(respecting.refuse_write(t.root, t.real("scratch.txt"))) ==
          "scratch.txt|scratch.txt|.git/info/exclude|1");
    // The deeper .gitignore decides over the root's .mcp-editignore.
    CHECK(said(respecting.refuse_write(t.root, t.real("sub/keep.txt"))) == "sub/keep.txt|keep.txt|sub/.gitignore|1");
    os::IgnoreSettings only_git;
    only_git.respect_gitignore = true;
    only_git.names = {};
    os::IgnoreFiles only(only_git);
    CHECK(only.refuse_write(t.root, t.real("scratch.txt")));
}

TEST_CASE("ignore files: a changed, new or removed ignore file is read again") {
    IgnoreTree t;
    os::IgnoreSettings settings;
    settings.names = {".rooignore", ".mcp-editignore"};
    os::IgnoreFiles ignore(settings);
    CHECK_FALSE(ignore.refuse_write(t.root, t.real("a.txt")));
    t.put(".rooignore", "a.txt\n");
    CHECK(said(ignore.refuse_write(t.root, t.real("a.txt"))) == "a.txt|a.txt|.rooignore|1");
    t.put(".rooignore", "# nothing now\nb.txt\n");
    CHECK_FALSE(ignore.refuse_write(t.root, t.real("a.txt")));
    CHECK(said(ignore.refuse_write(t.root, t.real("b.txt"))) == "b.txt|b.txt|.rooignore|2");
    fs::remove(t.base / ".rooignore");
    CHECK_FALSE(ignore.refuse_write(t.root, t.real("b.txt")));
}
