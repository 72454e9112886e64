// POSIX implementation of os/file_writes.hpp: a replacement staged in a temp file beside the target
// (its mode and owner copied), made durable (fsync, F_FULLFSYNC on macOS) and renamed over it, the
// directory synced; in-place overwrites, directories made and removed, files removed.
#include "os/file_writes.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <span>
#include <vector>

#include <dirent.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/log.hpp"
#include "os/confinement_posix.hpp"
#include "os/crypto.hpp"
#include "os/error_text.hpp"
#include "os/paths.hpp"
#include "os/temp_names.hpp"

namespace os {

namespace {

using posix::durable_sync;
using posix::Fd;
using posix::Located;

base::Unexpected<base::Failure> failed(std::string message, base::ErrorReason reason = base::ErrorReason::io_error) {
    return base::fail(base::Failure{std::move(message), reason});
}

base::Result<void> write_all(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, std::min<std::size_t>(bytes.size() - done, 1u << 30));
        if (n < 0) {
            if (errno == EINTR) continue;
            return failed(error_text(errno));
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

// The parts one after the other, in as few writev(2) calls as the system takes (one, for an
// edit's three parts), so the file's lock and times are taken once rather than per part.
base::Result<void> write_all(int fd, std::span<const std::string_view> parts) {
    constexpr std::size_t max_vectors = 16;
    std::size_t part = 0, offset = 0;  // the next byte to write: parts[part][offset]
    while (part < parts.size()) {
        std::array<iovec, max_vectors> vectors{};
        std::size_t count = 0, total = 0;
        for (std::size_t p = part; p < parts.size() && count < max_vectors && total < (1u << 30); ++p) {
            const std::string_view bytes = parts[p].substr(p == part ? offset : 0);
            if (bytes.empty()) continue;
            const std::size_t take = std::min<std::size_t>(bytes.size(), (1u << 30) - total);
            vectors[count++] = iovec{const_cast<char*>(bytes.data()), take};
            total += take;
        }
        if (count == 0) break;  // only empty parts were left
        const ssize_t n = ::writev(fd, vectors.data(), static_cast<int>(count));
        if (n < 0) {
            if (errno == EINTR) continue;
            return failed(error_text(errno));
        }
        // Step over what went out, part by part.
        for (auto left = static_cast<std::size_t>(n); part < parts.size();) {
            const std::size_t rest = parts[part].size() - offset;
            if (left < rest) {
                offset += left;
                break;
            }
            left -= rest;
            ++part;
            offset = 0;
        }
    }
    return {};
}

base::Result<void> sync_directory(int dir_fd, const std::string& dir) {
    if (durable_sync(dir_fd) != 0 && errno != EINVAL)
        return failed("fsync of directory " + dir + ": " + error_text(errno));
    return {};
}

// The folders this process has swept of stale temp files (device, inode), bounded.
std::mutex swept_mutex;
std::set<std::pair<dev_t, ino_t>> swept;
constexpr std::size_t max_swept = 4096;

// Once per folder and process, before its first staged write: removes the staging temp files a
// killed server left there. A live server holds an flock on each of its temp files until it is
// renamed or discarded, so a temp file whose lock can be taken has no writer left.
void sweep_stale_temps(int dir_fd) {
    struct stat st {};
    if (::fstat(dir_fd, &st) != 0) return;
    {
        std::lock_guard lock(swept_mutex);
        if (!swept.insert({st.st_dev, st.st_ino}).second) return;
        if (swept.size() > max_swept) swept.clear();
    }
    Fd listing{::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0)};
    DIR* dir = listing ? ::fdopendir(listing.get()) : nullptr;
    if (!dir) return;
    listing.release();  // closedir closes it
    ::rewinddir(dir);   // the duplicate shares its offset with `dir_fd`, which may be a held root's
    std::vector<std::string> stale;
    std::size_t seen = 0;
    while (const dirent* entry = ::readdir(dir)) {
        if (++seen > 1'000'000) break;
        if (os::is_staging_temp_name(entry->d_name)) stale.emplace_back(entry->d_name);
        if (stale.size() >= 1024) break;
    }
    for (const auto& name : stale) {
        Fd temp{::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
        if (!temp || ::flock(temp.get(), LOCK_EX | LOCK_NB) != 0) continue;
        struct stat ts {};
        if (::fstat(temp.get(), &ts) != 0 || !S_ISREG(ts.st_mode)) continue;
        if (::unlinkat(dir_fd, name.c_str(), 0) == 0)
            base::log::info("removed {}, a staging temp file ({} bytes) a stopped mcp-edit left in its folder", name,
                            static_cast<long long>(ts.st_size));
    }
    ::closedir(dir);
}

// What a staged write holds between staging and commit: the folder, reached from its root, and the
// temp file, open and locked.
struct Staging {
    Fd dir;
    Fd temp;
    std::string temp_name;
    std::string name;
};

// Creates a fresh temp file in `dir_fd` (its name in `temp_name`; os/temp_names.hpp), locked
// shared: the lock says "a live server's" to sweep_stale_temps in other processes. Between the
// create and the lock another server's sweep can take the file for a stale one and remove it: the
// lock then waits for that sweep to let go, and a file no longer linked is made again.
base::Result<Fd> create_temp_in(int dir_fd, const std::string& dir, os::TempPurpose purpose, mode_t mode,
                                std::string& temp_name) {
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp_name = os::temp_file_name(purpose);
        Fd fd{::openat(dir_fd, temp_name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)};
        if (!fd) {
            if (errno != EEXIST) return failed("cannot create a temp file in " + dir + ": " + error_text(errno));
            continue;
        }
        int locked;
        do locked = ::flock(fd.get(), LOCK_SH);
        while (locked != 0 && errno == EINTR);
        struct stat st {};
        if (locked == 0 && ::fstat(fd.get(), &st) == 0 && st.st_nlink == 0) continue;  // swept meanwhile
        return fd;
    }
    return failed("cannot create a temp file in " + dir + ": too many name collisions");
}

base::Result<Located> locate_for_write(const std::string& path) {
    Located at;
    if (posix::locate(path, at)) return at;
    return failed(posix::walk_error(path, errno));
}

}  // namespace

base::Result<StagedWrite> stage_write(const std::string& target, std::span<const std::string_view> parts,
                                      const FileStat* like, bool sync) {
    auto located = locate_for_write(target);
    if (!located) return base::fail(std::move(located.error()));
    Located& at = located.value();
    sweep_stale_temps(at.dir.get());
    auto staging = std::make_shared<Staging>();
    staging->name = at.name;
    const std::string dir = os::parent_of(target);
    auto temp = create_temp_in(at.dir.get(), dir, os::TempPurpose::stage, like ? 0600 : 0666, staging->temp_name);
    if (!temp) return base::fail(std::move(temp.error()));
    staging->temp = std::move(temp.value());
    StagedWrite out;
    out.target = target;
    out.temp_path = dir + "/" + staging->temp_name;
    const int fd = staging->temp.get();
    base::Result<void> written = write_all(fd, parts);
    if (written && like) {
        if (::fchmod(fd, static_cast<mode_t>(like->mode & 07777)) != 0)
            written = failed("cannot set the mode of the new file: " + error_text(errno));
        // The owner is kept when permitted (root, or the same owner); otherwise it is the writer's.
        static const uid_t euid = ::geteuid();  // this process never changes its identity
        static const gid_t egid = ::getegid();
        if (written && (like->uid != euid || like->gid != egid))
            if (::fchown(fd, like->uid, like->gid) != 0 && errno != EPERM)
                written = failed("cannot set the owner of the new file: " + error_text(errno));
    }
    if (written && sync && durable_sync(fd) != 0) written = failed("fsync: " + error_text(errno));
    if (!written) {
        ::unlinkat(at.dir.get(), staging->temp_name.c_str(), 0);
        return base::fail(std::move(written.error()));
    }
    staging->dir = std::move(at.dir);
    out.held = staging;
    return out;
}

base::Result<void> commit_staged(const StagedWrite& staged, bool sync) {
    auto* staging = static_cast<Staging*>(staged.held.get());
    if (!staging) return failed("nothing is staged for " + staged.target, base::ErrorReason::internal);
    // The folder is reached from its root again: it must still be the one the temp file is in.
    Located now;
    struct stat then_st {
    }, now_st{};
    // (Both a held root's own descriptor: the same folder, which no rename can swap.)
    const bool same_folder = posix::locate(staged.target, now) &&
                             ((now.dir.borrowed() && now.dir.get() == staging->dir.get()) ||
                              (::fstat(now.dir.get(), &now_st) == 0 && ::fstat(staging->dir.get(), &then_st) == 0 &&
                               now_st.st_dev == then_st.st_dev && now_st.st_ino == then_st.st_ino));
    if (!same_folder) {
        std::string message =
            "cannot write " + staged.target + ": " + posix::walk_error(staged.target, now.dir ? ENOTDIR : errno);
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
        return failed(std::move(message));
    }
    if (::renameat(staging->dir.get(), staging->temp_name.c_str(), staging->dir.get(), staging->name.c_str()) != 0) {
        std::string message = "cannot rename the new file over " + staged.target + ": " + error_text(errno);
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
        return failed(std::move(message));
    }
    staging->temp.reset();
    if (!sync) return {};
    return sync_directory(staging->dir.get(), os::parent_of(staged.target));
}

void discard_staged(const StagedWrite& staged) {
    if (auto* staging = static_cast<Staging*>(staged.held.get()))
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
}

base::Result<void> overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes,
                                      bool sync) {
    auto located = locate_for_write(target);
    if (!located) return base::fail(std::move(located.error()));
    const Located& at = located.value();
    const std::string dir = os::parent_of(target);
    // 1. A durable copy of the old bytes, so a crash in step 2 leaves something to recover from.
    std::string backup;
    auto backup_fd = create_temp_in(at.dir.get(), dir, os::TempPurpose::backup, 0600, backup);
    if (!backup_fd) return base::fail(std::move(backup_fd.error()));
    const Fd bfd = std::move(backup_fd.value());
    base::Result<void> kept = write_all(bfd.get(), old_bytes);
    if (kept && sync && durable_sync(bfd.get()) != 0) kept = failed("fsync: " + error_text(errno));
    if (!kept) {
        ::unlinkat(at.dir.get(), backup.c_str(), 0);
        return kept;
    }
    // 2. The new bytes over the file, then its length; the inode (and so every link) stays.
    const Fd fd{::openat(at.dir.get(), at.name.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)};
    if (!fd) {
        std::string message = "cannot open " + target + " for writing: " + posix::walk_error(target, errno);
        ::unlinkat(at.dir.get(), backup.c_str(), 0);
        return failed(std::move(message));
    }
    base::Result<void> written = write_all(fd.get(), bytes);
    if (written && ::ftruncate(fd.get(), static_cast<off_t>(bytes.size())) != 0)
        written = failed("ftruncate: " + error_text(errno));
    if (written && sync && durable_sync(fd.get()) != 0) written = failed("fsync: " + error_text(errno));
    if (!written) return failed(written.error().message + "; the previous content is kept in " + dir + "/" + backup);
    ::unlinkat(at.dir.get(), backup.c_str(), 0);
    return {};
}

base::Result<void> make_directories(const std::string& dir, bool sync) {
    if (dir.empty() || dir == "/") return {};
    Located at;
    // The folder itself is `dir`'s last component: create the way down to it, then it.
    if (!posix::locate_creating(dir, sync, at))
        return failed("cannot create the folders of " + dir + ": " + posix::walk_error(dir, errno));
    struct stat st {};
    if (::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISDIR(st.st_mode)) return {};
        return failed(dir + " exists and is not a directory", base::ErrorReason::not_a_file);
    }
    if (::mkdirat(at.dir.get(), at.name.c_str(), 0777) != 0 && errno != EEXIST)
        return failed("cannot create directory " + dir + ": " + error_text(errno));
    if (!sync) return {};
    return sync_directory(at.dir.get(), os::parent_of(dir));
}

base::Result<void> remove_file(const std::string& path, bool sync) {
    auto located = locate_for_write(path);
    if (!located) return base::fail(std::move(located.error()));
    const Located& at = located.value();
    if (::unlinkat(at.dir.get(), at.name.c_str(), 0) != 0)
        return failed("cannot remove " + path + ": " + error_text(errno),
                      errno == ENOENT ? base::ErrorReason::not_found : base::ErrorReason::io_error);
    if (!sync) return {};
    return sync_directory(at.dir.get(), os::parent_of(path));
}

base::Result<void> remove_empty_directory(const std::string& path, bool sync) {
    auto located = locate_for_write(path);
    if (!located) return base::fail(std::move(located.error()));
    const Located& at = located.value();
    if (::unlinkat(at.dir.get(), at.name.c_str(), AT_REMOVEDIR) != 0) {
        if (errno == ENOTEMPTY || errno == EEXIST) return failed("the folder is not empty", base::ErrorReason::exists);
        return failed(error_text(errno));
    }
    if (!sync) return {};
    return sync_directory(at.dir.get(), os::parent_of(path));
}

}  // namespace os
