// POSIX implementation of os/file_status.hpp: stat and lstat (from a held root's descriptor, with no
// symlink followed, under one), the kind a mode says, and the access check before a write.
#include "os/file_status.hpp"

#include <cerrno>
#include <cstdio>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/confinement_posix.hpp"

namespace os {

FileKind posix::kind_of_mode(mode_t mode) {
    if (S_ISREG(mode)) return FileKind::regular;
    if (S_ISDIR(mode)) return FileKind::directory;
    if (S_ISFIFO(mode)) return FileKind::fifo;
    if (S_ISSOCK(mode)) return FileKind::socket;
    if (S_ISCHR(mode)) return FileKind::char_device;
    if (S_ISBLK(mode)) return FileKind::block_device;
    return FileKind::other;
}

FileStat posix::from_stat(const struct stat& st) {
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

FileStat stat_path(const std::string& path) {
    struct stat st {};
    if (posix::under_held_root(path)) {
        posix::Located at;
        if (!posix::locate(path, at) || ::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return FileStat{};
        FileStat s = posix::from_stat(st);
        if (S_ISLNK(st.st_mode)) s.kind = FileKind::other;
        return s;
    }
    if (::stat(path.c_str(), &st) != 0) return FileStat{};
    return posix::from_stat(st);
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

}  // namespace os
