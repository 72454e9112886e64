// Unit tests of os/directory_walk that need POSIX: symlinks in and out of the roots and loops, a
// folder swapped for a symlink mid-walk, an unreadable folder.
#include <doctest/doctest.h>

#include <unistd.h>

#include "tests/unit/os/directory_walk_fixture.hpp"

using namespace walk_test;

TEST_CASE("directory walk: symlinks inside the roots followed, outside and broken ones not, loops entered once") {
    WalkTree t;
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

TEST_CASE("directory walk: a folder swapped for a symlink to outside after it was listed is not entered") {
    WalkTree t;
    t.put("sub/inside.txt");
    std::ofstream(t.base / "outside" / "secret.txt") << "outside";
    os::Workspace ws({t.root});
    struct Swapper : Recorder {
        const WalkTree* tree = nullptr;
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
    WalkTree t;
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
