// POSIX implementation of os/locks.hpp's folder lock: the lock two mcp-edit processes take around
// the re-check and the rename of a file in one folder, so that neither loses the other's update.
// It is an flock on `.mcp-edit-lock`, a file made in the folder (mode 0600) and removed when let
// go: taking it needs permission to write the folder, which the write needs anyway, whereas any
// process that can read a folder can flock the folder itself (issue 39, item 11: another user, or a
// reader, stalled every write). Who holds a lock is told from /proc/locks (Linux).
#include "os/error_text.hpp"
#include "os/locks.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/sysmacros.h>  // major, minor (macOS: sys/types.h)
#endif
#include <unistd.h>

#include "os/confinement_posix.hpp"

namespace os {

namespace {

using posix::Fd;

// The lock file's name in every folder a write goes to.
constexpr const char* folder_lock_file = ".mcp-edit-lock";

// How many times one try opens the lock file again because its last holder removed or replaced it
// between our open and our lock (each time someone else got it first: then it counts as held).
constexpr int max_reopens = 8;

base::Unexpected<base::Failure> lock_failed(std::string message) {
    return base::fail(base::Failure{std::move(message), base::ErrorReason::io_error});
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// flock, retried on EINTR: 0, or the errno it failed with.
int flock_now(int fd) {
    for (;;) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
        if (errno != EINTR) return errno;
    }
}

// The bytes of a small /proc file (at most `limit`); "" when it cannot be read.
std::string read_small(const std::string& path, std::size_t limit) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {};
    std::string out;
    char buffer[4096];
    while (out.size() < limit) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buffer,
                   static_cast<std::size_t>(std::min<std::size_t>(static_cast<std::size_t>(n), limit - out.size())));
    }
    ::close(fd);
    return out;
}

// The process that holds an flock on the file `st` according to /proc/locks (Linux): its pid,
// 0 when the holder lies outside this process's view (another PID namespace), nullopt when none.
std::optional<long> flock_holder(const struct stat& st) {
    const std::string locks = read_small("/proc/locks", 4u << 20);
    std::size_t at = 0;
    while (at < locks.size()) {
        std::size_t end = locks.find('\n', at);
        if (end == std::string::npos) end = locks.size();
        const std::string line = locks.substr(at, end - at);
        at = end + 1;
        // "1: FLOCK  ADVISORY  WRITE 4242 fe:00:10969410 0 EOF"; a waiter's line has "->" after the number.
        char kind[16] = {}, mode[16] = {}, access[16] = {};
        long pid = 0;
        unsigned major_number = 0, minor_number = 0;
        unsigned long long inode = 0;
        if (std::sscanf(line.c_str(), "%*d: %15s %15s %15s %ld %x:%x:%llu", kind, mode, access, &pid, &major_number,
                        &minor_number, &inode) != 7)
            continue;  // a waiter ("->"), or a line of another form
        if (std::string_view(kind) != "FLOCK" || std::string_view(access) != "WRITE") continue;
        if (inode != static_cast<unsigned long long>(st.st_ino) ||
            major_number != static_cast<unsigned>(major(st.st_dev)) ||
            minor_number != static_cast<unsigned>(minor(st.st_dev)))
            continue;
        return std::max(pid, 0L);
    }
    return std::nullopt;
}

// Printable ASCII only: a process names itself, and its name goes into a message a model reads.
std::string printable(std::string_view text) {
    std::string out;
    for (const char c : text) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out;
}

std::string user_name(uid_t uid) {
    struct passwd entry {};
    struct passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return printable(found->pw_name);
    return "uid " + std::to_string(uid);
}

// "process 4242 (mcp-edit, user alice, stopped)": the program's name (/proc/PID/comm), its user and
// whether it is stopped (a server stopped with SIGSTOP holds its locks until resumed).
std::string describe_process(long pid) {
    if (pid == 0) return "a process this server cannot see (in another container or PID namespace)";
    if (pid == static_cast<long>(::getpid())) return "this server itself (another of its calls)";
    const std::string proc = "/proc/" + std::to_string(pid);
    std::string name = read_small(proc + "/comm", 64);
    while (!name.empty() && (name.back() == '\n' || name.back() == '\0')) name.pop_back();
    std::vector<std::string> facts;
    if (!name.empty()) facts.push_back(printable(name));
    struct stat st {};
    if (::stat(proc.c_str(), &st) == 0) facts.push_back("user " + user_name(st.st_uid));
    // /proc/PID/stat: "pid (comm) S ...": the state follows the last ')'.
    const std::string stat_line = read_small(proc + "/stat", 1024);
    if (const auto close = stat_line.rfind(')'); close != std::string::npos && close + 2 < stat_line.size()) {
        const char state = stat_line[close + 2];
        if (state == 'T')
            facts.push_back("stopped: `kill -CONT " + std::to_string(pid) + "` resumes it");
        else if (state == 't')
            facts.push_back("stopped by a debugger");
        else if (state == 'D')
            facts.push_back("waiting on a disk or a network file system");
    }
    std::string out = "process " + std::to_string(pid);
    for (std::size_t i = 0; i < facts.size(); ++i) out += (i == 0 ? " (" : ", ") + facts[i];
    if (!facts.empty()) out += ")";
    return out;
}

}  // namespace

FolderLock::~FolderLock() {
    if (!handle_) return;
    const int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(handle_) - 1);
    if (folder_ >= 0) {
        // Removed while still held, and only when the name is still this lock file: a process that
        // opened it meanwhile finds, once it has the lock, that the name no longer leads to it, and
        // opens the folder's lock file again (see try_lock_folder).
        struct stat held {
        }, named{};
        if (::fstat(fd, &held) == 0 && ::fstatat(folder_, folder_lock_file, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
            same_file(held, named))
            ::unlinkat(folder_, folder_lock_file, 0);
        ::close(folder_);
    }
    ::close(fd);  // drops the flock
}

base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock) {
    Fd folder = posix::open_directory(dir);
    if (!folder) return lock_failed("cannot open the folder " + dir + " to lock it: " + posix::walk_error(dir, errno));
    const std::string shown = dir + "/" + folder_lock_file;
    for (int round = 0; round < max_reopens; ++round) {
        const int opened = ::openat(folder.get(), folder_lock_file,
                                    O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0600);
        if (opened < 0) {
            const int err = errno;
            struct stat there {};
            const bool exists = ::fstatat(folder.get(), folder_lock_file, &there, AT_SYMLINK_NOFOLLOW) == 0;
            if (err == ELOOP || (exists && !S_ISREG(there.st_mode)))
                return lock_failed(shown +
                                   " is not a plain file (a symlink or a folder put there), so the folder cannot be "
                                   "locked; remove it");
            if ((err == EACCES || err == EPERM) && exists)
                // another user's lock file: held until its server removes it (folder_lock_holder says whose)
                return false;
            if (err == EACCES || err == EPERM || err == EROFS) {
                // No lock file can be made in a folder this user cannot write (only in-place writes
                // of files with several names happen there): the folder itself is locked.
                if (const int locked = flock_now(folder.get()); locked != 0)
                    return locked == EWOULDBLOCK
                               ? base::Result<bool>(false)
                               : lock_failed("cannot lock the folder " + dir + ": " + error_text(locked));
                lock.handle_ = reinterpret_cast<void*>(static_cast<std::intptr_t>(folder.release()) + 1);
                lock.folder_ = -1;
                return true;
            }
            return lock_failed("cannot open " + shown + " to lock the folder: " + error_text(err));
        }
        Fd file(opened);
        struct stat held {};
        if (::fstat(file.get(), &held) != 0) return lock_failed("cannot read " + shown + ": " + error_text(errno));
        if (!S_ISREG(held.st_mode))
            return lock_failed(shown + " is not a plain file, so the folder cannot be locked; remove it");
        if (const int locked = flock_now(file.get()); locked != 0) {
            if (locked == EWOULDBLOCK) return false;
            return lock_failed("cannot lock " + shown + ": " + error_text(locked));
        }
        // Ours only if the name still leads to it: its last holder may have removed it between our
        // open and our lock (and someone else may have made a new one since).
        struct stat named {};
        if (::fstatat(folder.get(), folder_lock_file, &named, AT_SYMLINK_NOFOLLOW) == 0 && same_file(held, named)) {
            lock.handle_ = reinterpret_cast<void*>(static_cast<std::intptr_t>(file.release()) + 1);
            lock.folder_ = folder.release();
            return true;
        }
    }
    return false;  // made and removed again each time: other processes are taking it in turn
}

std::string folder_lock_holder(const std::string& dir) {
    Fd folder = posix::open_directory(dir);
    if (!folder) return {};
    struct stat file {};
    if (::fstatat(folder.get(), folder_lock_file, &file, AT_SYMLINK_NOFOLLOW) == 0) {
        if (const auto pid = flock_holder(file)) return describe_process(*pid);
        // A lock file this user may not open (another user's, mode 0600) counts as held.
        if (::faccessat(folder.get(), folder_lock_file, R_OK | W_OK, AT_EACCESS) != 0)
            return "the lock file " + dir + "/" + folder_lock_file + " of user " + user_name(file.st_uid) +
                   ", which this user may not open (when no mcp-edit of that user is running, remove it)";
    }
    struct stat itself {};
    if (::fstat(folder.get(), &itself) == 0)
        if (const auto pid = flock_holder(itself)) return describe_process(*pid);
    return {};
}

bool folder_being_committed(const std::string&) { return false; }  // a rename leaves no moment without the name

}  // namespace os
