// Unit tests of os/workspace: roots, containment, symlink escapes, `..`, new files.
// POSIX only: the fixture builds symlink escapes and compares paths as std::filesystem spells them
// on POSIX; the Windows build tests roots, containment and path forms in platform_windows.cpp.
#ifndef _WIN32
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "os/workspace.hpp"

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
    os::Workspace ws({t.root()});
    os::ResolvedPath out;
    os::PathError err;
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
    os::Workspace ws({t.root()});
    os::ResolvedPath out;
    os::PathError err;
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
    os::Workspace ws({t.root()});
    os::ResolvedPath out;
    os::PathError err;
    REQUIRE(ws.resolve("new/dir/file.txt", out, err));
    CHECK_FALSE(out.exists);
    CHECK(out.display == "new/dir/file.txt");
    CHECK_FALSE(ws.resolve("new/../../outside/x", out, err));
    CHECK(err.message.find("..") != std::string::npos);
}

TEST_CASE("workspace: unusable roots are reported, duplicates merged") {
    TempTree t;
    os::Workspace ws({t.root(), t.root(), (t.base / "missing").string(), (t.base / "root" / "a.txt").string()});
    CHECK(ws.roots().size() == 1);
    CHECK(ws.problems().size() == 2);
}

TEST_CASE("workspace: unusable roots say why") {
    TempTree t;
    os::Workspace ws({(t.base / "missing").string(), (t.base / "root" / "a.txt").string()});
    CHECK(ws.roots().empty());
    REQUIRE(ws.problems().size() == 2);
    CHECK(ws.problems()[0] == (t.base / "missing").string() + " does not exist");
    CHECK(ws.problems()[1] == (t.base / "root" / "a.txt").string() + " is not a directory");
}

TEST_CASE("workspace: with --root given, client roots narrow it where they overlap") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string sub = fs::canonical(t.base / "root" / "sub").string();
    const auto narrowed = ws.with_client_roots({"file://" + sub}, true);
    CHECK(narrowed.note.empty());
    REQUIRE(narrowed.workspace.roots() == std::vector<std::string>{sub});
    // A path inside --root but outside the client's roots is refused, naming both sets.
    os::ResolvedPath out;
    os::PathError err;
    CHECK_FALSE(narrowed.workspace.resolve(t.root() + "/a.txt", out, err));
    CHECK(err.message.find("outside the allowed roots (" + sub + ": where the client's roots (" + sub +
                           ") and this server's --root (" + fs::canonical(t.root()).string() + ") overlap)") !=
          std::string::npos);
    CHECK(narrowed.workspace.resolve(sub + "/new.txt", out, err));

    // A client root wider than --root leaves --root as it is.
    const auto wider = ws.with_client_roots({"file://" + fs::canonical(t.base).string()}, true);
    CHECK(wider.note.empty());
    CHECK(wider.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: with --root given, disjoint client roots leave --root and say so") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string outside = fs::canonical(t.base / "outside").string();
    const std::string root = fs::canonical(t.root()).string();
    const auto kept = ws.with_client_roots({"file://" + outside}, true);
    CHECK(kept.workspace.roots() == ws.roots());
    CHECK(kept.note == "The client's roots (" + outside + ") are outside this server's --root (" + root + "); --root is used.");
    os::ResolvedPath out;
    os::PathError err;
    CHECK(kept.workspace.resolve("a.txt", out, err));
    CHECK_FALSE(kept.workspace.resolve(outside + "/secret.txt", out, err));
    CHECK(err.message.find("(" + root + ": this server's --root; the client's roots (" + outside + ") are outside it)") !=
          std::string::npos);

    const auto unusable = ws.with_client_roots({"file://" + (t.base / "gone").string(), "https://example.com/x"}, true);
    CHECK(unusable.workspace.roots() == ws.roots());
    CHECK(unusable.note == "The client's roots (" + (t.base / "gone").string() + ", https://example.com/x) cannot be used (" +
                               (t.base / "gone").string() + " does not exist); this server's --root (" + root + ") is used.");

    const auto none = ws.with_client_roots({}, true);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: without --root, the client's roots are the roots; the working directory is the fallback") {
    TempTree t;
    const std::string outside = fs::canonical(t.base / "outside").string();
    const os::Workspace cwd({t.root()}, "this server's working directory; it was started without --root");
    const auto theirs = cwd.with_client_roots({"file://" + outside}, false);
    CHECK(theirs.note.empty());
    REQUIRE(theirs.workspace.roots() == std::vector<std::string>{outside});
    os::ResolvedPath out;
    os::PathError err;
    REQUIRE(theirs.workspace.resolve("secret.txt", out, err));  // relative to the client's root
    CHECK(out.real == outside + "/secret.txt");
    CHECK_FALSE(theirs.workspace.resolve(t.root() + "/a.txt", out, err));
    CHECK(err.message.find("the client's roots; this server was started without --root") != std::string::npos);

    const auto fallback = cwd.with_client_roots({"file://" + (t.base / "gone").string()}, false);
    CHECK(fallback.workspace.roots() == cwd.roots());
    CHECK(fallback.note.find("this server was started without --root, so its working directory (" +
                             fs::canonical(t.root()).string() + ") is used.") != std::string::npos);

    const auto none = cwd.with_client_roots({}, false);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == cwd.roots());
}

TEST_CASE("workspace: client root URIs are decoded; only the first max_client_roots are examined") {
    TempTree t;
    fs::create_directories(t.base / "root" / "with space");
    const os::Workspace ws({t.root()});
    const std::string spaced = fs::canonical(t.base / "root" / "with space").string();
    std::string uri = "file://";
    for (const char c : spaced) uri += c == ' ' ? std::string("%20") : std::string(1, c);
    const auto decoded = ws.with_client_roots({uri}, true);
    CHECK(decoded.workspace.roots() == std::vector<std::string>{spaced});

    std::vector<std::string> many(os::Workspace::max_client_roots, "file://" + (t.base / "gone").string());
    many.push_back("file://" + spaced);  // past the bound: not examined
    const auto bounded = ws.with_client_roots(many, true);
    CHECK(bounded.workspace.roots() == ws.roots());
    CHECK(bounded.note.find(" and 56 more (and 1 more not examined)) cannot be used") != std::string::npos);
}

TEST_CASE("workspace: a missing path outside the roots is not said to resolve to its ancestor") {
    TempTree t;
    os::Workspace ws({t.root()});
    os::ResolvedPath out;
    os::PathError err;
    const std::string root = fs::canonical(t.root()).string();
    const std::string secret = fs::canonical(t.base / "outside" / "secret.txt").string();
    CHECK_FALSE(ws.resolve("/no-such-dir-mcp-edit/sub/zzz.txt", out, err));
    CHECK(err.reason == base::ErrorReason::outside_root);
    CHECK(err.message.find("resolves to /,") == std::string::npos);
    CHECK(err.message.find("Refused: /no-such-dir-mcp-edit/sub/zzz.txt is outside the allowed roots (" + root +
                           "): it does not exist, and its nearest existing folder, /, is outside them.") == 0);
    CHECK(err.message.find("e.g. a path relative to " + root) != std::string::npos);
    // A tail of it exists in the root: the message names it.
    CHECK_FALSE(ws.resolve("/repo-mcp-edit/a.txt", out, err));
    CHECK(err.message.find(" " + root + "/a.txt exists: if that is the file meant, pass a.txt.") != std::string::npos);
    // An existing file outside: said plainly, without "resolves to" itself.
    CHECK_FALSE(ws.resolve(secret, out, err));
    CHECK(err.message.find("Refused: " + secret + " is outside the allowed roots") == 0);
    CHECK_FALSE(ws.resolve("escape", out, err));
    CHECK(err.message.find("escape resolves to " + secret) != std::string::npos);
    CHECK_FALSE(ws.resolve("", out, err));
    CHECK(err.reason == base::ErrorReason::invalid_arguments);
}

TEST_CASE("workspace: `~/` is the user's home, then checked against the roots") {
    TempTree t;
    const char* saved = std::getenv("HOME");
    const std::string saved_home = saved ? saved : "";
    ::setenv("HOME", t.root().c_str(), 1);
    os::Workspace ws({t.root()});
    os::ResolvedPath out;
    os::PathError err;
    CHECK(ws.resolve("~/a.txt", out, err));
    CHECK(out.real == fs::canonical(t.base / "root" / "a.txt").string());
    CHECK(ws.resolve("~/new.txt", out, err));
    CHECK_FALSE(out.exists);
    ::setenv("HOME", (t.base / "outside").string().c_str(), 1);
    CHECK_FALSE(ws.resolve("~/secret.txt", out, err));
    CHECK(err.message.find("outside the allowed roots") != std::string::npos);
    if (saved) ::setenv("HOME", saved_home.c_str(), 1);
    else ::unsetenv("HOME");
}

#endif  // _WIN32
