// Unit tests of os/workspace with several roots (issue 39): every shown path carries its root and
// names one file, refusals of outside paths describe nothing outside, and a root that moved or
// cannot be held is refused rather than opened by name.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "os/confinement.hpp"
#include "os/file_reads.hpp"
#include "os/workspace.hpp"
#include "tests/unit/os/workspace_fixture.hpp"

namespace workspace_test {

TEST_CASE("workspace (issue 39, item 7): with several roots every shown path carries its root and names one file") {
    TwoRoots t;
    os::Workspace ws({t.root(), t.other()});
    REQUIRE(ws.labels() == std::vector<std::string>{"root", "other"});
    const auto first = ws.resolve(t.root() + "/config.py");
    const auto second = ws.resolve(t.other() + "/config.py");
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    CHECK(first->display == "root/config.py");
    CHECK(second->display == "other/config.py");
    CHECK(ws.display_path(t.other()) == "other");
    CHECK(ws.display_path(t.root() + "/sub") == "root/sub");
    // Each shown path, passed back, names the file it was shown for.
    for (const auto* shown : {&first, &second}) {
        const auto back = ws.resolve((*shown)->display);
        REQUIRE(back.ok());
        CHECK(back->real == (*shown)->real);
        CHECK(back->display == (*shown)->display);
    }
    CHECK(ws.resolve("other")->real == t.other());
    // A bare path that exists in both roots is refused, naming both.
    const auto bare = ws.resolve("config.py");
    REQUIRE_FALSE(bare.ok());
    CHECK(bare.error().message.find("exists in 2 roots") != std::string::npos);
    CHECK(bare.error().message.find("root/config.py, other/config.py") != std::string::npos);
    // One that exists in one root only is that file; a new one goes to the first root.
    const auto only = ws.resolve("only-here.txt");
    REQUIRE(only.ok());
    CHECK(only->real == t.other() + "/only-here.txt");
    CHECK(only->display == "other/only-here.txt");
    const auto fresh = ws.resolve("brand-new.txt");
    REQUIRE(fresh.ok());
    CHECK(fresh->real == t.root() + "/brand-new.txt");
    const auto fresh_other = ws.resolve("other/sub/new.txt");
    REQUIRE(fresh_other.ok());
    CHECK(fresh_other->real == t.other() + "/sub/new.txt");
    // "." is still the first root.
    CHECK(ws.resolve(".")->real == t.root());
    // A folder of the first root named like the second root: its files are shown (and taken)
    // with the first root's name in front, never confused with the second root's.
    fs::create_directories(fs_path(t.root() + "/other"));
    std::ofstream(fs_path(t.root() + "/other/config.py")) << "inner";
    const auto inner = ws.resolve(t.root() + "/other/config.py");
    REQUIRE(inner.ok());
    CHECK(inner->display == "root/other/config.py");
    CHECK(ws.resolve("root/other/config.py")->real == t.root() + "/other/config.py");
    CHECK(ws.resolve("other/config.py")->real == t.other() + "/config.py");
    std::ofstream(fs_path(t.root() + "/other/inner-only.txt")) << "i";
    const auto unclear = ws.resolve("other/inner-only.txt");
    REQUIRE_FALSE(unclear.ok());
    CHECK(unclear.error().message.find("root/other/inner-only.txt") != std::string::npos);
}

TEST_CASE(
    "workspace (issue 39, item 7): roots that share a base name get labels of their own; one root shows bare paths") {
    TempTree t;
    fs::create_directories(fs_path(t.base + "/a/src"));
    fs::create_directories(fs_path(t.base + "/b/src"));
    std::ofstream(fs_path(t.base + "/b/src/x.txt")) << "x";
    os::Workspace ws({t.base + "/a/src", t.base + "/b/src"});
    REQUIRE(ws.labels() == std::vector<std::string>{"src", "src~2"});
    const auto x = ws.resolve(t.base + "/b/src/x.txt");
    REQUIRE(x.ok());
    CHECK(x->display == "src~2/x.txt");
    CHECK(ws.resolve("src~2/x.txt")->real == t.base + "/b/src/x.txt");
    CHECK(ws.resolve("src/x.txt")->real == t.base + "/a/src/x.txt");  // a new file in the first
    os::Workspace one({t.root()});
    CHECK(one.resolve(t.root() + "/a.txt")->display == "a.txt");
    CHECK(one.display_path(t.root()) == ".");
}

TEST_CASE("workspace (issue 39): refusals of outside paths say the same whether they exist, and name no link target" *
          doctest::skip(!links_work()) * doctest::description("this system makes no symlinks")) {
    TempTree t;
    REQUIRE(t.make_links());
    os::Workspace ws({t.root()});
    const std::string root = t.root();
    const auto words = [&](const std::string& path) {
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().reason == base::ErrorReason::outside_root);
        CHECK(r.error().message.find(t.outside()) == std::string::npos);
        std::string m = r.error().message;
        m.erase(0, m.find(" is outside"));
        return m;
    };
    const std::string same = words("escape");           // a link to an outside file that exists
    CHECK(words("dangling") == same);                   // a link to an outside name that does not
    CHECK(words("outdir/secret.txt") == same);          // through a linked outside folder
    CHECK(words("outdir/nothing/deeper.txt") == same);  // ... to a name that does not exist
    CHECK(words("outdir/secret.txt/x") == same);        // ... past a file (ENOTDIR outside)
    const auto absolute = ws.resolve(t.outside() + "/secret.txt");
    const auto absent = ws.resolve(t.outside() + "/nothing/x.txt");
    REQUIRE_FALSE(absolute.ok());
    REQUIRE_FALSE(absent.ok());
    CHECK(absolute.error().message.substr(absolute.error().message.find(" is outside")) ==
          absent.error().message.substr(absent.error().message.find(" is outside")));
    // A dangling link whose target would be inside the roots is still refused, for what it is.
    REQUIRE(make_symlink(root + "/not-yet.txt", root + "/to-be", false));
    const auto inside = ws.resolve("to-be");
    REQUIRE_FALSE(inside.ok());
    CHECK(inside.error().message.find("target does not exist") != std::string::npos);
}

#ifndef _WIN32
TEST_CASE(
    "workspace (issue 39, item 3): a root renamed away and replaced is refused as moved, for reads and new files") {
    TempTree t;
    const std::string root = t.root();
    os::Workspace ws({root});
    REQUIRE(ws.resolve("a.txt").ok());
    fs::rename(fs_path(root), fs_path(t.base + "/moved"));
    fs::create_directories(fs_path(root));
    std::ofstream(fs_path(root + "/a.txt")) << "new";
    for (const std::string& path :
         {std::string("a.txt"), std::string("new.txt"), root + "/a.txt", std::string("."), std::string("sub/x.txt")}) {
        const auto r = ws.resolve(path);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("the root " + root + " was moved or replaced") != std::string::npos);
        CHECK(r.error().reason == base::ErrorReason::outside_root);
    }
    // Taken afresh (a restart, new client roots), the folder now at the path is the root.
    os::Workspace fresh({root});
    const auto now = fresh.resolve("a.txt");
    REQUIRE(now.ok());
    CHECK(os::read_regular_file(now->real, 1024, false)->bytes == "new");
    CHECK(os::root_state(root) == os::RootState::held);
}

TEST_CASE("workspace (issue 39, item 3): a root replaced by a symlink is refused as moved, naming no target") {
    TempTree t;
    const std::string root = t.root();
    os::Workspace ws({root});
    fs::rename(fs_path(root), fs_path(t.base + "/moved"));
    fs::create_directory_symlink(fs_path(t.outside()), fs_path(root));
    const auto r = ws.resolve("secret.txt");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("was moved or replaced") != std::string::npos);
    CHECK(r.error().message.find(t.outside()) == std::string::npos);
}

TEST_CASE(
    "workspace (issue 39, item 2): five rounds of 64 new client roots: every root is held, released when its workspace "
    "goes") {
    TempTree t;
    const os::Workspace cwd({t.root()}, "this server's working directory; it was started without --root");
    const std::size_t before = os::held_root_count();
    std::optional<os::Workspace> current;
    for (int round = 0; round < 5; ++round) {
        std::vector<std::string> uris;
        for (std::size_t i = 0; i < os::Workspace::max_client_roots; ++i) {
            const std::string dir = t.base + "/r" + std::to_string(round) + "-" + std::to_string(i);
            fs::create_directories(fs_path(dir + "/real"));
            std::ofstream(fs_path(dir + "/real/t.txt")) << "inside\n";
            uris.push_back(file_uri(dir));
        }
        current.reset();  // the session drops the old workspace when the new roots arrive
        current.emplace(cwd.with_client_roots(uris, false).workspace);
        REQUIRE(current->roots().size() == os::Workspace::max_client_roots);
        CHECK(current->problems().empty());
        CHECK(os::held_root_count() <= before + os::Workspace::max_client_roots);
    }
    // A folder of the last round's last root swapped for a symlink to outside: the read fails,
    // and nothing outside is read (a root that was not held was opened by name: it leaked).
    const std::string dir = current->roots().back();
    std::ofstream(fs_path(t.outside() + "/t.txt")) << "OUTSIDE\n";
    const auto resolved = current->resolve(dir + "/real/t.txt");
    REQUIRE(resolved.ok());
    fs::rename(fs_path(dir + "/real"), fs_path(dir + "/real.hold"));
    fs::create_directory_symlink(fs_path(t.outside()), fs_path(dir + "/real"));
    const auto read = os::read_regular_file(resolved->real, 1024, false);
    CHECK_FALSE(read.ok());
    if (read.ok()) CHECK(read->bytes != "OUTSIDE\n");
    current.reset();
    CHECK(os::held_root_count() == before);
}

TEST_CASE("workspace (issue 39, item 2): past the bound of held folders a root is refused, never opened by name") {
    TempTree t;
    std::vector<os::Workspace> alive;
    std::vector<std::string> refused;
    for (int round = 0; refused.empty() && round < 8; ++round) {
        std::vector<std::string> dirs;
        for (int i = 0; i < 64; ++i) {
            dirs.push_back(t.base + "/b" + std::to_string(round) + "-" + std::to_string(i));
            fs::create_directories(fs_path(dirs.back()));
        }
        alive.emplace_back(dirs);
        refused = alive.back().problems();
    }
    REQUIRE_FALSE(refused.empty());
    CHECK(refused.front().find("this server already holds " + std::to_string(os::max_held_roots) +
                               " root folders open") != std::string::npos);
    CHECK(os::held_root_count() == os::max_held_roots);
    // Every root the workspace kept is held; the ones refused are not roots: paths under them are outside.
    for (const auto& root : alive.back().roots()) CHECK(os::root_state(root) == os::RootState::held);
    const std::string unheld = refused.front().substr(0, refused.front().find(" cannot be used"));
    const auto r = alive.back().resolve(unheld + "/x.txt");
    REQUIRE_FALSE(r.ok());
    CHECK((r.error().reason == base::ErrorReason::outside_root || r.error().reason == base::ErrorReason::no_root));
    alive.clear();
    CHECK(os::held_root_count() < os::max_held_roots);
}
#endif

}  // namespace workspace_test
