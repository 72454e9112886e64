// Unit tests of the write path (platform staging + tools::write_checked): mode and owner kept,
// symlinks and hard links kept, no temp files left, both fsync settings, new files with their
// folders, and the re-check that refuses to write over a file changed since it was read.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <asio/io_context.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/change.hpp"

namespace fs = std::filesystem;

namespace {

struct Fixture {
    fs::path root;
    asio::io_context io;
    os::Workspace workspace;
    tools::FileStates states;
    tools::FileLanes lanes{io.get_executor()};
    tools::CallContext ctx;

    static fs::path make_root() {
        static int counter = 0;
        fs::path p = fs::temp_directory_path() / ("mcp-edit-write-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(p);
        return fs::canonical(p);
    }
    explicit Fixture(bool sync = false)
        : root(make_root()), workspace({root.string()}), ctx{workspace, states, lanes, {}, io.get_executor()} {
        ctx.fsync = sync;
    }
    ~Fixture() { fs::remove_all(root); }

    void put(const std::string& name, const std::string& bytes) {
        fs::create_directories((root / name).parent_path());
        std::ofstream(root / name, std::ios::binary) << bytes;
    }
    std::string get(const std::string& name) const {
        std::ifstream in(root / name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    tools::FileSnapshot snapshot(const std::string& name) {
        tools::FileSnapshot s;
        os::PathError err;
        REQUIRE(workspace.resolve(name, s.file.path, err));
        s.exists = s.file.path.exists;
        if (s.exists) REQUIRE_FALSE(tools::load_text_file(ctx, name, s.file).has_value());
        return s;
    }
    std::size_t entries() const {
        std::size_t n = 0;
        for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) ++n;
        return n;
    }
};

}  // namespace

TEST_CASE("write_checked replaces the bytes, keeps the mode, leaves no temp file") {
    for (bool sync : {false, true}) {
        CAPTURE(sync);
        Fixture f(sync);
        f.put("run.sh", "#!/bin/sh\r\necho old\r\n");
        ::chmod((f.root / "run.sh").c_str(), 0751);
        auto before = f.snapshot("run.sh");
        CHECK(tools::write_checked(f.ctx, before, "#!/bin/sh\r\necho new\r\n") == "");
        CHECK(f.get("run.sh") == "#!/bin/sh\r\necho new\r\n");
        struct stat st {};
        REQUIRE(::stat((f.root / "run.sh").c_str(), &st) == 0);
        CHECK((st.st_mode & 07777) == 0751);
        CHECK(f.entries() == 1);
    }
}

TEST_CASE("write_checked through a symlink changes the target and keeps the link") {
    Fixture f;
    f.put("real/target.txt", "old\n");
    fs::create_symlink(f.root / "real" / "target.txt", f.root / "link.txt");
    auto before = f.snapshot("link.txt");
    CHECK(before.file.path.real == (f.root / "real" / "target.txt").string());
    CHECK(tools::write_checked(f.ctx, before, "new\n") == "");
    CHECK(fs::is_symlink(f.root / "link.txt"));
    CHECK(f.get("real/target.txt") == "new\n");
}

TEST_CASE("write_checked keeps hard links linked") {
    Fixture f;
    f.put("a.txt", "shared old\n");
    fs::create_hard_link(f.root / "a.txt", f.root / "b.txt");
    auto before = f.snapshot("a.txt");
    CHECK(tools::write_checked(f.ctx, before, "shared new, longer than before\n") == "");
    CHECK(f.get("b.txt") == "shared new, longer than before\n");
    CHECK(fs::hard_link_count(f.root / "a.txt") == 2);
    auto again = f.snapshot("b.txt");
    CHECK(tools::write_checked(f.ctx, again, "short\n") == "");
    CHECK(f.get("a.txt") == "short\n");
    CHECK(f.entries() == 2);
}

TEST_CASE("write_checked keeps the owner when permitted") {
    if (::geteuid() != 0) return;  // only root may give a file to someone else
    Fixture f;
    f.put("owned.txt", "x\n");
    REQUIRE(::chown((f.root / "owned.txt").c_str(), 1234, 4321) == 0);
    auto before = f.snapshot("owned.txt");
    CHECK(tools::write_checked(f.ctx, before, "y\n") == "");
    struct stat st {};
    REQUIRE(::stat((f.root / "owned.txt").c_str(), &st) == 0);
    CHECK(st.st_uid == 1234u);
    CHECK(st.st_gid == 4321u);
}

TEST_CASE("write_checked creates a new file and its folders") {
    Fixture f;
    auto before = f.snapshot("deep/er/new.txt");
    CHECK_FALSE(before.exists);
    CHECK(tools::write_checked(f.ctx, before, "fresh\n") == "");
    CHECK(f.get("deep/er/new.txt") == "fresh\n");
}

TEST_CASE("write_checked refuses when the file changed since it was read, and shows how") {
    Fixture f;
    f.put("c.txt", "one\ntwo\n");
    auto before = f.snapshot("c.txt");
    f.put("c.txt", "one\nTWO by someone else\n");
    const std::string error = tools::write_checked(f.ctx, before, "one\ntwo\nthree\n");
    CHECK(error.find("Nothing was written") != std::string::npos);
    CHECK(error.find("+TWO by someone else") != std::string::npos);
    CHECK(f.get("c.txt") == "one\nTWO by someone else\n");
    CHECK(f.entries() == 1);
}

TEST_CASE("write_checked accepts a file whose timestamps changed but whose bytes did not") {
    Fixture f;
    f.put("d.txt", "same\n");
    auto before = f.snapshot("d.txt");
    const auto later = fs::last_write_time(f.root / "d.txt") + std::chrono::seconds(5);
    fs::last_write_time(f.root / "d.txt", later);
    CHECK(tools::write_checked(f.ctx, before, "changed\n") == "");
    CHECK(f.get("d.txt") == "changed\n");
}

TEST_CASE("write_checked refuses a new file that appeared meanwhile") {
    Fixture f;
    auto before = f.snapshot("e.txt");
    f.put("e.txt", "someone else's\n");
    CHECK(tools::write_checked(f.ctx, before, "mine\n").find("created by another program") != std::string::npos);
    CHECK(f.get("e.txt") == "someone else's\n");
}
