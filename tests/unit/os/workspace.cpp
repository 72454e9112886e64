// Unit tests of os/workspace with one root: containment, symlink escapes, `..`, new files,
// unusable roots, `~/`. Portable: under Wine the same cases run with drive-letter paths (C:/...) and
// %USERPROFILE%; the cases that need links are skipped where links cannot be made (see
// workspace_fixture.hpp). Client roots: workspace_client_roots.cpp; several roots:
// workspace_several_roots.cpp; Windows' own spellings: workspace_windows.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "os/confinement.hpp"
#include "os/workspace.hpp"
#include "tests/unit/os/workspace_fixture.hpp"

namespace workspace_test {

TEST_CASE("workspace: relative and absolute paths inside the root resolve") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto relative = ws.resolve("a.txt");
    REQUIRE(relative.ok());
    CHECK(relative->real == t.root() + "/a.txt");
    CHECK(relative->exists);
    CHECK(relative->display == "a.txt");
    const auto absolute = ws.resolve(t.root() + "/sub/../a.txt");
    REQUIRE(absolute.ok());
    CHECK(absolute->display == "a.txt");
}

TEST_CASE("workspace: escapes by `..` and absolute paths are refused with a message naming the roots") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto up = ws.resolve("../outside/secret.txt");
    REQUIRE_FALSE(up.ok());
    CHECK(up.error().message.find("outside the allowed roots (" + t.root() + ")") != std::string::npos);
    const auto absolute = ws.resolve(t.outside() + "/secret.txt");
    REQUIRE_FALSE(absolute.ok());
    CHECK(absolute.error().reason == base::ErrorReason::outside_root);
    // Each refused as outside the roots (not for some other reason, such as a file that is missing).
    const auto refused_outside = [&](const std::string& path) {
        CAPTURE(path);
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().reason == base::ErrorReason::outside_root);
        CHECK(r.error().message.find("outside the allowed roots (" + t.root() + ")") != std::string::npos);
    };
    refused_outside("sub/../../outside/new.txt");
    refused_outside(drive_of(t.base) + "etc/passwd");
    refused_outside("/etc/passwd");  // on Windows: on the root's drive, still outside
    CHECK_FALSE(ws.resolve(std::string("a\0b", 3)).ok());
    CHECK_FALSE(ws.resolve("").ok());
}

TEST_CASE("workspace: symlinks inside resolve; symlinks out, dangling or through a folder are refused" *
          doctest::skip(!links_work()) * doctest::description("this system makes no symlinks")) {
    TempTree t;
    REQUIRE(t.make_links());
    os::Workspace ws({t.root()});
    const auto inside = ws.resolve("inside-link");
    REQUIRE(inside.ok());
    CHECK(inside->display == "a.txt");
    const auto escape = ws.resolve("escape");
    REQUIRE_FALSE(escape.ok());
    CHECK(escape.error().message.find("outside the allowed roots") != std::string::npos);
    // Where the link leads is not said (issue 39: refusals named outside targets).
    CHECK(escape.error().message.find(t.outside()) == std::string::npos);
    CHECK_FALSE(ws.resolve("outdir/secret.txt").ok());
    CHECK_FALSE(ws.resolve("outdir/new.txt").ok());
    CHECK_FALSE(ws.resolve("dangling").ok());
}

TEST_CASE("workspace: new files resolve through their nearest existing ancestor") {
    TempTree t;
    os::Workspace ws({t.root()});
    const auto fresh = ws.resolve("new/dir/file.txt");
    REQUIRE(fresh.ok());
    CHECK_FALSE(fresh->exists);
    CHECK(fresh->display == "new/dir/file.txt");
    CHECK(fresh->real == t.root() + "/new/dir/file.txt");
    const auto up = ws.resolve("new/../../outside/x");
    REQUIRE_FALSE(up.ok());
#ifdef _WIN32
    // Windows resolves `..` by name before it looks at the disk: the path is outside.
    CHECK(up.error().reason == base::ErrorReason::outside_root);
    CHECK(up.error().message.find("Refused: new/../../outside/x is outside the allowed roots") == 0);
#else
    // Refused for its `..` in the missing part (which could not be checked), not as outside.
    CHECK(up.error().reason == base::ErrorReason::invalid_arguments);
    CHECK(up.error().message ==
          "Refused: new/../../outside/x uses `..` in a part of the path that does not exist yet. "
          "Pass the path without `..`.");
#endif
}

TEST_CASE("workspace: unusable roots are reported, duplicates merged") {
    TempTree t;
    os::Workspace ws({t.root(), t.root(), t.base + "/missing", t.root() + "/a.txt"});
    CHECK(ws.roots().size() == 1);
    CHECK(ws.problems().size() == 2);
}

TEST_CASE("workspace: unusable roots say why") {
    TempTree t;
    os::Workspace ws({t.base + "/missing", t.root() + "/a.txt"});
    CHECK(ws.roots().empty());
    REQUIRE(ws.problems().size() == 2);
    CHECK(ws.problems()[0] == t.base + "/missing does not exist");
    CHECK(ws.problems()[1] == t.root() + "/a.txt is not a directory");
}

TEST_CASE("workspace: a missing path outside the roots is not said to resolve to its ancestor") {
    TempTree t;
    os::Workspace ws({t.root()});
    const std::string root = t.root();
    const std::string drive = drive_of(t.base);  // "/" or "C:/"
    const std::string secret = t.outside() + "/secret.txt";
    const std::string missing = drive + "no-such-dir-mcp-edit/sub/zzz.txt";
    const auto absent = ws.resolve(missing);
    REQUIRE_FALSE(absent.ok());
    CHECK(absent.error().reason == base::ErrorReason::outside_root);
    CHECK(absent.error().message.find("resolves to " + drive + ",") == std::string::npos);
    // Whether an outside path exists is not said (issue 39): the same words as for one that does.
    CHECK(absent.error().message.find("Refused: " + missing + " is outside the allowed roots (" + root + ").") == 0);
    CHECK(absent.error().message.find("exist") == std::string::npos);
    CHECK(absent.error().message.find("e.g. a path relative to " + root) != std::string::npos);
    // A tail of it exists in the root: the message names it.
    const auto tail = ws.resolve(drive + "repo-mcp-edit/a.txt");
    REQUIRE_FALSE(tail.ok());
    CHECK(tail.error().message.find(" " + root + "/a.txt exists: if that is the file meant, pass a.txt.") !=
          std::string::npos);
    // An existing file outside: said plainly, without "resolves to" itself.
    const auto outside = ws.resolve(secret);
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().message.find("Refused: " + secret + " is outside the allowed roots") == 0);
    const auto empty = ws.resolve("");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().reason == base::ErrorReason::invalid_arguments);
}

TEST_CASE("workspace: `~/` is the user's home, then checked against the roots") {
    TempTree t;
    HomeAt home(t.root());
    os::Workspace ws({t.root()});
    const auto existing = ws.resolve("~/a.txt");
    REQUIRE(existing.ok());
    CHECK(existing->real == t.root() + "/a.txt");
    const auto fresh = ws.resolve("~/new.txt");
    REQUIRE(fresh.ok());
    CHECK_FALSE(fresh->exists);
    home.move_to(t.outside());
    const auto outside = ws.resolve("~/secret.txt");
    REQUIRE_FALSE(outside.ok());
    CHECK(outside.error().message.find("outside the allowed roots") != std::string::npos);
}

}  // namespace workspace_test
