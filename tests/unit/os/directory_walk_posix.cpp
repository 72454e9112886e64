// Unit tests of os/directory_walk that need POSIX: symlinks in and out of the roots and loops, a
// folder swapped for a symlink mid-walk, an unreadable folder (walked as user 65534 when the tests run as root).
#include <doctest/doctest.h>

#include "tests/unit/os/as_another_user.hpp"

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

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
    CHECK(r.seen == std::vector<std::string>{"dangling o ->broken", "file.txt f 4", "real d", "real/inner.txt f 3",
                                             "real/up d ->loop", "to_file f ->in 4", "to_out o ->out",
                                             "to_out_file o ->out", "to_real d ->in", "to_real/inner.txt f 3",
                                             "to_real/up d ->loop"});
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

namespace {

// What a walk saw, one line per fact ("seen <entry>", "unreadable <why>", "summary <count>"): passed
// from a child process to the parent as text.
std::string walked(const WalkTree& t) {
    os::Workspace ws({t.root});
    Recorder r;
    const auto summary = walk(t, ws, r);
    std::string out;
    for (const auto& line : r.seen) out += "seen " + line + "\n";
    for (const auto& line : r.unreadable) out += "unreadable " + line + "\n";
    out += "summary " + std::to_string(summary.unreadable) + "\n";
    return out;
}

// walked(t) as user and group 65534 (nobody), in a child process, when this process is root (root
// reads any folder: only another user meets EACCES); directly otherwise. Either way the walk's lines,
// or what kept the child from walking.
std::string walked_unprivileged(const WalkTree& t) {
    if (::geteuid() != 0) return walked(t);
    return os_test::as_user_nobody([&t] { return walked(t); });
}

}  // namespace

TEST_CASE("directory walk: an unreadable folder is reported and the walk goes on") {
    WalkTree t;
    t.put("locked/x.txt");
    t.put("open/y.txt");
    // As root, the walk runs as user 65534 (see walked_unprivileged), who must reach the tree.
    const auto others_may = [](const fs::path& p, fs::perms what) { fs::permissions(p, what, fs::perm_options::add); };
    const fs::perms read_enter =
        fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec;
    for (const fs::path& dir : {t.base, t.base / "root", t.base / "root" / "open"}) others_may(dir, read_enter);
    others_may(t.base / "root" / "open" / "y.txt", fs::perms::group_read | fs::perms::others_read);
    fs::permissions(t.base / "root" / "locked", fs::perms::none);
    CHECK(walked_unprivileged(t) ==
          "seen locked d\n"
          "seen open d\n"
          "seen open/y.txt f 1\n"
          "unreadable locked: Permission denied\n"
          "summary 1\n");
}
