// Unit tests of Workspace::with_client_roots: the client's roots narrow --root where they overlap,
// leave it (and say so) where they do not, are the roots without --root; their URIs are decoded.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "os/confinement.hpp"
#include "os/workspace.hpp"
#include "tests/unit/os/workspace_fixture.hpp"

namespace workspace_test {

TEST_CASE("workspace: with --root given, client roots narrow it where they overlap") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string sub = t.root() + "/sub";
    const auto narrowed = ws.with_client_roots({file_uri(sub)}, true);
    CHECK(narrowed.note.empty());
    REQUIRE(narrowed.workspace.roots() == std::vector<std::string>{sub});
    // A path inside --root but outside the client's roots is refused, naming both sets.
    const auto refused = narrowed.workspace.resolve(t.root() + "/a.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("outside the allowed roots (" + sub + ": where the client's roots (" + sub +
                                       ") and this server's --root (" + t.root() + ") overlap)") != std::string::npos);
    CHECK(narrowed.workspace.resolve(sub + "/new.txt").ok());

    // A client root wider than --root leaves --root as it is.
    const auto wider = ws.with_client_roots({file_uri(t.base)}, true);
    CHECK(wider.note.empty());
    CHECK(wider.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: with --root given, disjoint client roots leave --root and say so") {
    TempTree t;
    const os::Workspace ws({t.root()});
    const std::string outside = t.outside();
    const std::string root = t.root();
    const auto kept = ws.with_client_roots({file_uri(outside)}, true);
    CHECK(kept.workspace.roots() == ws.roots());
    CHECK(kept.note ==
          "The client's roots (" + outside + ") are outside this server's --root (" + root + "); --root is used.");
    CHECK(kept.workspace.resolve("a.txt").ok());
    const auto refused = kept.workspace.resolve(outside + "/secret.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("(" + root + ": this server's --root; the client's roots (" + outside +
                                       ") are outside it)") != std::string::npos);

    const std::string gone = t.base + "/gone";
    const auto unusable = ws.with_client_roots({file_uri(gone), "https://example.com/x"}, true);
    CHECK(unusable.workspace.roots() == ws.roots());
    CHECK(unusable.note == "The client's roots (" + gone + ", https://example.com/x) cannot be used (" + gone +
                               " does not exist); this server's --root (" + root + ") is used.");

    const auto none = ws.with_client_roots({}, true);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == ws.roots());
}

TEST_CASE("workspace: without --root, the client's roots are the roots; the working directory is the fallback") {
    TempTree t;
    const std::string outside = t.outside();
    const os::Workspace cwd({t.root()}, "this server's working directory; it was started without --root");
    const auto theirs = cwd.with_client_roots({file_uri(outside)}, false);
    CHECK(theirs.note.empty());
    REQUIRE(theirs.workspace.roots() == std::vector<std::string>{outside});
    const auto relative = theirs.workspace.resolve("secret.txt");  // relative to the client's root
    REQUIRE(relative.ok());
    CHECK(relative->real == outside + "/secret.txt");
    const auto refused = theirs.workspace.resolve(t.root() + "/a.txt");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("the client's roots; this server was started without --root") !=
          std::string::npos);

    const auto fallback = cwd.with_client_roots({file_uri(t.base + "/gone")}, false);
    CHECK(fallback.workspace.roots() == cwd.roots());
    CHECK(fallback.note.find("this server was started without --root, so its working directory (" + t.root() +
                             ") is used.") != std::string::npos);

    const auto none = cwd.with_client_roots({}, false);
    CHECK(none.note.empty());
    CHECK(none.workspace.roots() == cwd.roots());
}

TEST_CASE("workspace: client root URIs are decoded; only the first max_client_roots are examined") {
    TempTree t;
    fs::create_directories(fs_path(t.root() + "/with space"));
    const os::Workspace ws({t.root()});
    const std::string spaced = t.root() + "/with space";
    std::string uri;
    for (const char c : file_uri(spaced)) uri += c == ' ' ? std::string("%20") : std::string(1, c);
    const auto decoded = ws.with_client_roots({uri}, true);
    CHECK(decoded.workspace.roots() == std::vector<std::string>{spaced});

    std::vector<std::string> many(os::Workspace::max_client_roots, file_uri(t.base + "/gone"));
    many.push_back(file_uri(spaced));  // past the bound: not examined
    const auto bounded = ws.with_client_roots(many, true);
    CHECK(bounded.workspace.roots() == ws.roots());
    CHECK(bounded.note.find(" and 56 more (and 1 more not examined)) cannot be used") != std::string::npos);
}

}  // namespace workspace_test
