// POSIX implementation of platform.hpp: paths, realpath, stat, non-blocking reads of regular files,
// the home, working and executable paths. Writing is in file_writes_posix.cpp.
#include "os/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include "os/confinement_posix.hpp"
#include "text/bytes/byte_buffer.hpp"

namespace platform {

FileKind posix::kind_of_mode(mode_t mode) {
    if (S_ISREG(mode)) return FileKind::regular;
    if (S_ISDIR(mode)) return FileKind::directory;
    if (S_ISFIFO(mode)) return FileKind::fifo;
    if (S_ISSOCK(mode)) return FileKind::socket;
    if (S_ISCHR(mode)) return FileKind::char_device;
    if (S_ISBLK(mode)) return FileKind::block_device;
    return FileKind::other;
}

namespace {

FileStat from_stat(const struct stat& st) {
    FileStat s;
    s.kind = posix::kind_of_mode(st.st_mode);
    s.identity = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    s.size = static_cast<std::uint64_t>(st.st_size);
    s.mode = static_cast<std::uint32_t>(st.st_mode);
    s.uid = static_cast<std::uint32_t>(st.st_uid);
    s.gid = static_cast<std::uint32_t>(st.st_gid);
    s.links = static_cast<std::uint64_t>(st.st_nlink);
#ifdef __APPLE__
    const struct timespec& mtime = st.st_mtimespec;
    const struct timespec& ctime = st.st_ctimespec;
#else
    const struct timespec& mtime = st.st_mtim;
    const struct timespec& ctime = st.st_ctim;
#endif
    s.mtime_ns = static_cast<std::int64_t>(mtime.tv_sec) * 1000000000 + mtime.tv_nsec;
    s.ctime_ns = static_cast<std::int64_t>(ctime.tv_sec) * 1000000000 + ctime.tv_nsec;
    return s;
}

}  // namespace

bool is_absolute(std::string_view path) { return !path.empty() && path[0] == '/'; }

std::string normalize_separators(std::string path) { return path; }

std::string filesystem_root(std::string_view path) { return is_absolute(path) ? "/" : ""; }

bool same_path(std::string_view a, std::string_view b) { return a == b; }

ConsoleCloseHook::ConsoleCloseHook(std::function<void()>) {}
ConsoleCloseHook::~ConsoleCloseHook() = default;

std::string error_text(int err) { return std::strerror(err); }

std::optional<std::string> home_directory() {
    if (const char* home = std::getenv("HOME"); home && home[0] == '/') return std::string(home);
    char buffer[4096];
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(getuid(), &entry, buffer, sizeof buffer, &found) == 0 && found && found->pw_dir &&
        found->pw_dir[0] == '/')
        return std::string(found->pw_dir);
    return std::nullopt;
}

std::optional<std::string> real_path(const std::string& path, int* err) {
    if (posix::already_real(path)) return path;
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (!resolved) {
        if (err) *err = errno;
        return std::nullopt;
    }
    std::string out(resolved);
    std::free(resolved);
    return out;
}

FileStat stat_path(const std::string& path) {
    struct stat st {};
    if (posix::under_held_root(path)) {
        posix::Located at;
        if (!posix::locate(path, at) || ::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return FileStat{};
        FileStat s = from_stat(st);
        if (S_ISLNK(st.st_mode)) s.kind = FileKind::other;
        return s;
    }
    if (::stat(path.c_str(), &st) != 0) return FileStat{};
    return from_stat(st);
}

base::Result<void> may_write(const std::string& path, const FileStat& st) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.mode & 07777));
    if ((st.mode & 0222) == 0)
        return base::fail(
            base::Failure{std::string("it is read-only (mode ") + mode + ")", base::ErrorReason::not_writable});
    posix::Located at;
    if (!posix::locate(path, at)) return {};  // the write itself will say what is wrong
    if (::faccessat(at.dir.get(), at.name.c_str(), W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW) != 0 && errno == EACCES)
        return base::fail(base::Failure{std::string("this user (uid ") + std::to_string(::geteuid()) +
                                            ") may not write it (mode " + mode + ", owner uid " +
                                            std::to_string(st.uid) + ")",
                                        base::ErrorReason::not_writable});
    return {};
}

bool is_symlink(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

const char* describe(FileKind kind) {
    switch (kind) {
        case FileKind::missing: return "missing";
        case FileKind::regular: return "a regular file";
        case FileKind::directory: return "a directory";
        case FileKind::fifo: return "a FIFO (named pipe)";
        case FileKind::socket: return "a socket";
        case FileKind::char_device: return "a character device";
        case FileKind::block_device: return "a block device";
        case FileKind::other: break;
    }
    return "not a regular file";
}

base::Result<ReadFile, ReadFailure> read_regular_file(const std::string& path, std::uint64_t max_size, bool keep_open,
                                                      std::size_t at_most) {
    int opened = -1;
    if (posix::under_held_root(path)) {
        posix::Located at;
        if (posix::locate(path, at))
            opened = ::openat(at.dir.get(), at.name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    } else {
        opened = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    }
    if (opened < 0) {
        const int e = errno;
        return ReadFailure::failed(e == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io,
                                   posix::walk_error(path, e));
    }
    posix::Fd fd(opened);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
    ReadFile out;
    out.stat = from_stat(st);
    if (out.stat.kind != FileKind::regular) return ReadFailure::not_regular_file(out.stat.kind);
    if (out.stat.size > max_size) return ReadFailure::over_limit(out.stat.size);
    // Regular files ignore O_NONBLOCK. Read the size fstat gave, then keep reading to EOF in
    // small steps so a file that grew meanwhile is still read whole, within the cap.
    const bool whole = at_most == static_cast<std::size_t>(-1);
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(out.stat.size, at_most));
    text::reserve_bytes(out.bytes, want);
    out.bytes.resize(want);
    std::size_t have = 0;
    char probe[65536];
    for (;;) {
        const bool in_place = have < out.bytes.size();
        if (!in_place && !whole) break;  // the start was asked for, and read
        char* dst = in_place ? out.bytes.data() + have : probe;
        const std::size_t room = in_place ? out.bytes.size() - have : sizeof probe;
        const ssize_t n = ::read(fd.get(), dst, room);
        if (n < 0) {
            if (errno == EINTR) continue;
            return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
        }
        if (n == 0) break;
        if (!in_place) {
            if (have + static_cast<std::size_t>(n) > max_size)
                return ReadFailure::over_limit(have + static_cast<std::size_t>(n));
            out.bytes.append(probe, static_cast<std::size_t>(n));
        }
        have += static_cast<std::size_t>(n);
    }
    out.bytes.resize(have);
    if (whole) out.stat.size = have;
    if (keep_open) {
        out.open_file = std::shared_ptr<const void>(new int(fd.release()), [](const int* kept) {
            ::close(*kept);
            delete kept;
        });
    }
    return out;
}

std::string current_directory() {
    char buf[PATH_MAX];
    if (!::getcwd(buf, sizeof buf)) return "/";
    return buf;
}

std::optional<std::string> executable_path() {
#ifdef __APPLE__
    std::uint32_t size = 0;
    _NSGetExecutablePath(nullptr, &size);
    std::string path(size, '\0');
    if (_NSGetExecutablePath(path.data(), &size) != 0) return std::nullopt;
    path.resize(std::strlen(path.c_str()));
    return real_path(path);
#else
    return real_path("/proc/self/exe");
#endif
}

}  // namespace platform
