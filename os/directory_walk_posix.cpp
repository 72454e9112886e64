// Reading one folder on POSIX for the directory walk: reached from the held root's descriptor
// (no symlink followed), entries read with readdir and, when asked, lstat'ed relative to it.
#include "os/directory_walk.hpp"

#include <cerrno>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "os/confinement_posix.hpp"

namespace os {

namespace {

std::int64_t mtime_of(const struct stat& st) {
#ifdef __APPLE__
    return static_cast<std::int64_t>(st.st_mtimespec.tv_sec) * 1000000000 + st.st_mtimespec.tv_nsec;
#else
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
#endif
}

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};

}  // namespace

base::Result<DirectoryListing, int> read_directory(const std::string& real_dir, std::size_t max_entries,
                                                   bool with_stat) {
    posix::Fd fd = posix::open_directory(real_dir);
    if (!fd) return base::fail(errno);
    struct stat self {};
    if (::fstat(fd.get(), &self) != 0) return base::fail(errno);
    DirectoryListing out;
    out.identity = {static_cast<std::uint64_t>(self.st_dev), static_cast<std::uint64_t>(self.st_ino)};
    const int dir_fd = fd.get();
    std::unique_ptr<DIR, DirCloser> dir(::fdopendir(fd.release()));  // owns the descriptor from here
    if (!dir) {
        const int err = errno;
        ::close(dir_fd);
        return base::fail(err);
    }
    for (;;) {
        errno = 0;
        const dirent* d = ::readdir(dir.get());
        if (!d) {
            if (errno != 0) return base::fail(errno);
            break;
        }
        const char* name = d->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        if (out.entries.size() >= max_entries) {
            ++out.unread;
            continue;
        }
        DirectoryEntry entry;
        entry.name = name;
        bool need_stat = false;
        switch (d->d_type) {
            case DT_REG:
                entry.kind = FileKind::regular;
                need_stat = with_stat;
                break;
            case DT_DIR: entry.kind = FileKind::directory; break;
            case DT_LNK: entry.symlink = true; break;
            case DT_FIFO: entry.kind = FileKind::fifo; break;
            case DT_SOCK: entry.kind = FileKind::socket; break;
            case DT_CHR: entry.kind = FileKind::char_device; break;
            case DT_BLK: entry.kind = FileKind::block_device; break;
            default: need_stat = true; break;  // DT_UNKNOWN: some file systems do not say
        }
        if (need_stat) {
            struct stat st {};
            if (::fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
                entry.symlink = S_ISLNK(st.st_mode);
                entry.kind = entry.symlink ? FileKind::other : posix::kind_of_mode(st.st_mode);
                if (entry.kind == FileKind::regular) {
                    entry.size = static_cast<std::uint64_t>(st.st_size);
                    entry.mtime_ns = mtime_of(st);
                    entry.stat_known = true;
                }
            } else if (errno == ENOENT) {
                continue;  // removed since readdir saw it
            }
        }
        out.entries.push_back(std::move(entry));
    }
    return out;
}

}  // namespace os
