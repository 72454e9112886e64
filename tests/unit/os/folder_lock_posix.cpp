// Unit tests of the folder lock (os/folder_lock_posix.cpp): one try never waits; a second holder is
// told apart and named (its pid, program, user, and whether it is stopped); a process that can
// merely read the folder cannot hold it (issue 39, item 11); the lock file is removed when let go,
// and one a killed holder left is taken over; a symlink in its place is refused, not followed.
#include <doctest/doctest.h>

#include "tests/unit/os/as_another_user.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/locks.hpp"
#include "tests/unit/os/folder_lock_holder_posix.hpp"

namespace fs = std::filesystem;

namespace {

struct Folder {
    fs::path dir;
    Folder() {
        std::string pattern = (fs::temp_directory_path() / "mcp-edit-folder-lock-XXXXXX").string();
        REQUIRE(::mkdtemp(pattern.data()));
        dir = fs::canonical(pattern);
    }
    ~Folder() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    fs::path lock_file() const { return dir / ".mcp-edit-lock"; }
};

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("folder lock: one try never waits; another holder is told apart and named, stopped or not") {
    Folder f;
    lock_test::LockHolder holder(f.dir.string());
    os::FolderLock lock;
    const auto started = std::chrono::steady_clock::now();
    const auto taken = os::try_lock_folder(f.dir.string(), lock);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(100));
    REQUIRE(taken.ok());
    CHECK_FALSE(taken.value());
    CHECK_FALSE(lock.held());
#ifdef __linux__
    const std::string pid = std::to_string(holder.pid());
    const std::string named = os::folder_lock_holder(f.dir.string());
    CAPTURE(named);
    CHECK(mentions(named, "process " + pid + " (lock-holder, user "));
    CHECK_FALSE(mentions(named, "stopped"));
    holder.stop();  // as a server stopped with SIGSTOP (or Ctrl-Z) would hold it
    const std::string stopped = os::folder_lock_holder(f.dir.string());
    CAPTURE(stopped);
    CHECK(mentions(stopped, "stopped: `kill -CONT " + pid + "` resumes it"));
#endif
    // Another folder's lock is another lock.
    fs::create_directories(f.dir / "sub");
    {
        os::FolderLock other;
        const auto sub = os::try_lock_folder((f.dir / "sub").string(), other);
        REQUIRE(sub.ok());
        CHECK(sub.value());
    }
    // Killed: its lock is gone with it, its lock file stays; the next holder takes that file over
    // and removes it when it lets go.
    holder.release();
    CHECK(fs::exists(f.lock_file()));
    CHECK(os::folder_lock_holder(f.dir.string()).empty());
    {
        const auto again = os::try_lock_folder(f.dir.string(), lock);
        REQUIRE(again.ok());
        CHECK(again.value());
        CHECK(lock.held());
#ifdef __linux__
        CHECK(os::folder_lock_holder(f.dir.string()) == "this server itself (another of its calls)");
#endif
    }
}

TEST_CASE("folder lock: removed when let go; a second try while held is refused at once") {
    Folder f;
    {
        os::FolderLock first, second;
        const auto taken = os::try_lock_folder(f.dir.string(), first);
        REQUIRE(taken.ok());
        CHECK(taken.value());
        CHECK(fs::exists(f.lock_file()));
        CHECK((fs::status(f.lock_file()).permissions() & fs::perms::all) ==
              (fs::perms::owner_read | fs::perms::owner_write));
        // flock locks belong to the open file: a second open, even in this process, is another holder.
        const auto again = os::try_lock_folder(f.dir.string(), second);
        REQUIRE(again.ok());
        CHECK_FALSE(again.value());
        CHECK_FALSE(second.held());
    }
    CHECK_FALSE(fs::exists(f.lock_file()));
    CHECK(fs::is_empty(f.dir));
}

TEST_CASE(
    "folder lock: a process that can only read the folder cannot hold it (an flock on the folder itself does not "
    "count)") {
    Folder f;
    // Any process that may read a folder can open it and flock it: that used to stall every write
    // in it for 30 s (issue 39, item 11).
    const int reader = ::open(f.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(reader >= 0);
    REQUIRE(::flock(reader, LOCK_EX | LOCK_NB) == 0);
    os::FolderLock lock;
    const auto taken = os::try_lock_folder(f.dir.string(), lock);
    ::close(reader);
    REQUIRE(taken.ok());
    CHECK(taken.value());
}

TEST_CASE("folder lock: a symlink or a folder in the lock file's place is refused, never followed") {
    Folder f;
    const fs::path target = f.dir / "elsewhere";
    fs::create_symlink(target, f.lock_file());
    os::FolderLock lock;
    const auto linked = os::try_lock_folder(f.dir.string(), lock);
    REQUIRE_FALSE(linked.ok());
    CHECK(linked.error().message ==
          (f.dir / ".mcp-edit-lock").string() +
              " is not a plain file (a symlink or a folder put there), so the folder cannot be "
              "locked; remove it");
    CHECK(linked.error().reason == base::ErrorReason::io_error);
    CHECK_FALSE(fs::exists(fs::symlink_status(target)));
    fs::remove(f.lock_file());
    fs::create_directory(f.lock_file());
    const auto folder = os::try_lock_folder(f.dir.string(), lock);
    REQUIRE_FALSE(folder.ok());
    CHECK(mentions(folder.error().message, "is not a plain file"));
    CHECK_FALSE(lock.held());
}

TEST_CASE("folder lock: another user's lock file that this user may not open counts as held, and says whose" *
          doctest::skip(::geteuid() != 0) * doctest::description("needs root, to act as two users (root and 65534)")) {
    // Needs root to act as two users: root makes the lock file (0600), a child as `nobody` tries.
    Folder f;
    ::chmod(f.dir.c_str(), 0777);
    std::ofstream(f.lock_file()).put('\n');
    ::chmod(f.lock_file().c_str(), 0600);
    const std::string said = os_test::as_user_nobody([&f] {
        os::FolderLock lock;
        const auto taken = os::try_lock_folder(f.dir.string(), lock);
        return !taken.ok() ? "error: " + taken.error().message
                           : (taken.value() ? std::string("taken") : "held: " + os::folder_lock_holder(f.dir.string()));
    });
    CHECK(said ==
          "held: the lock file " + f.lock_file().string() +
              " of user root, which this user may not open (when no mcp-edit of that user is running, remove it)");
}
