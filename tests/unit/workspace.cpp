// Unit tests of server/workspace: roots, containment, symlink escapes, `..`, new files.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "server/workspace.hpp"

namespace fs = std::filesystem;

namespace {

struct TempTree {
    fs::path base;
    TempTree() {
        base = fs::temp_directory_path() / ("mcp-edit-ws-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(base / "root" / "sub");
        fs::create_directories(base / "outside");
        std::ofstream(base / "root" / "a.txt") << "a";
        std::ofstream(base / "outside" / "secret.txt") << "s";
        fs::create_symlink(base / "outside" / "secret.txt", base / "root" / "escape");
        fs::create_symlink(base / "root" / "a.txt", base / "root" / "inside-link");
        fs::create_symlink(base / "outside", base / "root" / "outdir");
        fs::create_symlink(base / "outside" / "nothing", base / "root" / "dangling");
    }
    ~TempTree() { fs::remove_all(base); }
    std::string root() const { return (base / "root").string(); }
    static inline int counter = 0;
};

}  // namespace

TEST_CASE("workspace: relative and absolute paths inside the root resolve") {
    TempTree t;
    server::Workspace ws({t.root()});
    server::ResolvedPath out;
    server::PathError err;
    REQUIRE(ws.resolve("a.txt", out, err));
    CHECK(out.real == fs::canonical(t.base / "root" / "a.txt").string());
    CHECK(out.exists);
    CHECK(out.display == "a.txt");
    REQUIRE(ws.resolve(t.root() + "/sub/../a.txt", out, err));
    CHECK(out.display == "a.txt");
    REQUIRE(ws.resolve("inside-link", out, err));
    CHECK(out.display == "a.txt");
}

TEST_CASE("workspace: escapes are refused with a message naming the roots") {
    TempTree t;
    server::Workspace ws({t.root()});
    server::ResolvedPath out;
    server::PathError err;
    CHECK_FALSE(ws.resolve("escape", out, err));
    CHECK(err.message.find("outside the allowed roots") != std::string::npos);
    CHECK_FALSE(ws.resolve("../outside/secret.txt", out, err));
    CHECK_FALSE(ws.resolve("outdir/secret.txt", out, err));
    CHECK_FALSE(ws.resolve("outdir/new.txt", out, err));
    CHECK_FALSE(ws.resolve("/etc/passwd", out, err));
    CHECK_FALSE(ws.resolve(std::string("a\0b", 3), out, err));
    CHECK_FALSE(ws.resolve("", out, err));
    CHECK_FALSE(ws.resolve("dangling", out, err));
}

TEST_CASE("workspace: new files resolve through their nearest existing ancestor") {
    TempTree t;
    server::Workspace ws({t.root()});
    server::ResolvedPath out;
    server::PathError err;
    REQUIRE(ws.resolve("new/dir/file.txt", out, err));
    CHECK_FALSE(out.exists);
    CHECK(out.display == "new/dir/file.txt");
    CHECK_FALSE(ws.resolve("new/../../outside/x", out, err));
    CHECK(err.message.find("..") != std::string::npos);
}

TEST_CASE("workspace: unusable roots are reported, duplicates merged") {
    TempTree t;
    server::Workspace ws({t.root(), t.root(), (t.base / "missing").string(), (t.base / "root" / "a.txt").string()});
    CHECK(ws.roots().size() == 1);
    CHECK(ws.problems().size() == 2);
}
