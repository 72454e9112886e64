// POSIX implementation of platform.hpp: realpath, stat, and non-blocking reads of regular files.
#include "server/platform.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace platform {

namespace {

FileKind kind_of(mode_t mode) {
    if (S_ISREG(mode)) return FileKind::regular;
    if (S_ISDIR(mode)) return FileKind::directory;
    if (S_ISFIFO(mode)) return FileKind::fifo;
    if (S_ISSOCK(mode)) return FileKind::socket;
    if (S_ISCHR(mode)) return FileKind::char_device;
    if (S_ISBLK(mode)) return FileKind::block_device;
    return FileKind::other;
}

FileStat from_stat(const struct stat& st) {
    FileStat s;
    s.kind = kind_of(st.st_mode);
    s.identity = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
    s.size = static_cast<std::uint64_t>(st.st_size);
    s.mode = static_cast<std::uint32_t>(st.st_mode);
    return s;
}

}  // namespace

std::string error_text(int err) { return std::strerror(err); }

std::optional<std::string> real_path(const std::string& path, int* err) {
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
    if (::stat(path.c_str(), &st) != 0) return FileStat{};
    return from_stat(st);
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

bool read_regular_file(const std::string& path, std::uint64_t max_size, ReadFile& out,
                       ReadFailure& failure) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        failure.why = errno == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io;
        failure.detail = error_text(errno);
        return false;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        failure.why = ReadFailure::Why::io;
        failure.detail = error_text(errno);
        ::close(fd);
        return false;
    }
    out.stat = from_stat(st);
    if (out.stat.kind != FileKind::regular) {
        failure.why = ReadFailure::Why::not_regular;
        failure.kind = out.stat.kind;
        ::close(fd);
        return false;
    }
    if (out.stat.size > max_size) {
        failure.why = ReadFailure::Why::too_large;
        failure.size = out.stat.size;
        ::close(fd);
        return false;
    }
    // Regular files ignore O_NONBLOCK. Read the size fstat gave, then keep reading to EOF in
    // small steps so a file that grew meanwhile is still read whole, within the cap.
    out.bytes.resize(static_cast<std::size_t>(out.stat.size));
    std::size_t have = 0;
    char probe[65536];
    for (;;) {
        const bool in_place = have < out.bytes.size();
        char* dst = in_place ? out.bytes.data() + have : probe;
        const std::size_t room = in_place ? out.bytes.size() - have : sizeof probe;
        const ssize_t n = ::read(fd, dst, room);
        if (n < 0) {
            if (errno == EINTR) continue;
            failure.why = ReadFailure::Why::io;
            failure.detail = error_text(errno);
            ::close(fd);
            return false;
        }
        if (n == 0) break;
        if (!in_place) {
            if (have + static_cast<std::size_t>(n) > max_size) {
                failure.why = ReadFailure::Why::too_large;
                failure.size = have + static_cast<std::size_t>(n);
                ::close(fd);
                return false;
            }
            out.bytes.append(probe, static_cast<std::size_t>(n));
        }
        have += static_cast<std::size_t>(n);
    }
    out.bytes.resize(have);
    out.stat.size = have;
    ::close(fd);
    return true;
}

std::string current_directory() {
    char buf[PATH_MAX];
    if (!::getcwd(buf, sizeof buf)) return "/";
    return buf;
}

}  // namespace platform
