// POSIX implementation of platform.hpp's writing half: a replacement staged in a temp file beside
// the target (its mode and owner copied), made durable (fsync, F_FULLFSYNC on macOS) and renamed
// over it, the directory synced; in-place overwrites, directories, private files and the advisory
// lock (flock) that keeps a second server out of a history journal.
#include "os/platform.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace platform {

namespace {

std::string parent_dir(const std::string& p) {
    const auto slash = p.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : p.substr(0, slash);
}

std::string base_name(const std::string& p) {
    const auto slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool write_all(int fd, std::string_view bytes, std::string& error) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, std::min<std::size_t>(bytes.size() - done, 1u << 30));
        if (n < 0) {
            if (errno == EINTR) continue;
            error = error_text(errno);
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// fsync, made durable: on macOS fsync only hands the data to the drive, whose cache may lose it at
// power loss; F_FULLFSYNC flushes that cache too (APFS, HFS+), with fsync where it is refused.
int durable_sync(int fd) {
#ifdef __APPLE__
    if (::fcntl(fd, F_FULLFSYNC) == 0) return 0;
#endif
    return ::fsync(fd);
}

bool sync_directory(const std::string& dir, std::string& error) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot open directory " + dir + ": " + error_text(errno);
        return false;
    }
    const int rc = durable_sync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0 && err != EINVAL) {
        error = "fsync of directory " + dir + ": " + error_text(err);
        return false;
    }
    return true;
}

std::string random_suffix() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s;
    for (int i = 0; i < 10; ++i) s += alphabet[rng() % (sizeof alphabet - 1)];
    return s;
}

// Creates a fresh temp file beside `target`; returns its fd (or -1 with `error`).
int create_temp_beside(const std::string& target, const char* purpose, mode_t mode, std::string& temp_path,
                       std::string& error) {
    const std::string dir = parent_dir(target);
    const std::string name = base_name(target);
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp_path = dir + "/." + name + "." + purpose + "-" + random_suffix();
        const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd >= 0) return fd;
        if (errno != EEXIST) {
            error = "cannot create a temp file in " + dir + ": " + error_text(errno);
            return -1;
        }
    }
    error = "cannot create a temp file in " + dir + ": too many name collisions";
    return -1;
}

}  // namespace

bool stage_write(const std::string& target, std::string_view bytes, const FileStat* like, bool sync,
                 StagedWrite& out, std::string& error) {
    out.target = target;
    const int fd = create_temp_beside(target, "mcp-edit", like ? 0600 : 0666, out.temp_path, error);
    if (fd < 0) return false;
    bool ok = write_all(fd, bytes, error);
    if (ok && like) {
        if (::fchmod(fd, static_cast<mode_t>(like->mode & 07777)) != 0) {
            error = "cannot set the mode of the new file: " + error_text(errno);
            ok = false;
        }
        // The owner is kept when permitted (root, or the same owner); otherwise it is the writer's.
        static const uid_t euid = ::geteuid();  // this process never changes its identity
        static const gid_t egid = ::getegid();
        if (ok && (like->uid != euid || like->gid != egid))
            if (::fchown(fd, like->uid, like->gid) != 0 && errno != EPERM) {
                error = "cannot set the owner of the new file: " + error_text(errno);
                ok = false;
            }
    }
    if (ok && sync && durable_sync(fd) != 0) {
        error = "fsync: " + error_text(errno);
        ok = false;
    }
    if (::close(fd) != 0 && ok) {
        error = "close: " + error_text(errno);
        ok = false;
    }
    if (!ok) ::unlink(out.temp_path.c_str());
    return ok;
}

bool commit_staged(const StagedWrite& staged, bool sync, std::string& error) {
    if (::rename(staged.temp_path.c_str(), staged.target.c_str()) != 0) {
        error = "cannot rename the new file over " + staged.target + ": " + error_text(errno);
        ::unlink(staged.temp_path.c_str());
        return false;
    }
    return !sync || sync_directory(parent_dir(staged.target), error);
}

void discard_staged(const StagedWrite& staged) { ::unlink(staged.temp_path.c_str()); }

bool overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes, bool sync,
                        std::string& error) {
    // 1. A durable copy of the old bytes, so a crash in step 2 leaves something to recover from.
    std::string backup;
    const int bfd = create_temp_beside(target, "mcp-edit-backup", 0600, backup, error);
    if (bfd < 0) return false;
    bool ok = write_all(bfd, old_bytes, error) && (!sync || durable_sync(bfd) == 0);
    ::close(bfd);
    if (!ok) {
        ::unlink(backup.c_str());
        return false;
    }
    // 2. The new bytes over the file, then its length; the inode (and so every link) stays.
    const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        error = "cannot open " + target + " for writing: " + error_text(errno);
        ::unlink(backup.c_str());
        return false;
    }
    ok = write_all(fd, bytes, error);
    if (ok && ::ftruncate(fd, static_cast<off_t>(bytes.size())) != 0) {
        error = "ftruncate: " + error_text(errno);
        ok = false;
    }
    if (ok && sync && durable_sync(fd) != 0) {
        error = "fsync: " + error_text(errno);
        ok = false;
    }
    ::close(fd);
    if (!ok) {
        error += "; the previous content is kept in " + backup;
        return false;
    }
    ::unlink(backup.c_str());
    return true;
}

bool make_directories(const std::string& dir, bool sync, std::string& error) {
    if (dir.empty() || dir == "/") return true;
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return true;
        error = dir + " exists and is not a directory";
        return false;
    }
    if (!make_directories(parent_dir(dir), sync, error)) return false;
    if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
        error = "cannot create directory " + dir + ": " + error_text(errno);
        return false;
    }
    return !sync || sync_directory(parent_dir(dir), error);
}

bool remove_file(const std::string& path, bool sync, std::string& error) {
    if (::unlink(path.c_str()) != 0) {
        error = "cannot remove " + path + ": " + error_text(errno);
        return false;
    }
    return !sync || sync_directory(parent_dir(path), error);
}

std::optional<std::string> make_private_directory(const std::string& prefix) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (!::mkdtemp(pattern.data())) return std::nullopt;  // mkdtemp makes it 0700
    return pattern;
}

bool write_private_file(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return false;
    bool ok = true;
    for (std::size_t done = 0; ok && done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (!ok) ::unlink(path.c_str());
    return ok;
}

bool remove_directory(const std::string& path) { return ::rmdir(path.c_str()) == 0; }

FileLock::~FileLock() {
    if (handle_) ::close(static_cast<int>(reinterpret_cast<std::intptr_t>(handle_) - 1));  // drops the flock
}

bool take_lock(const std::string& path, FileLock& lock, bool& held_elsewhere, std::string& error) {
    held_elsewhere = false;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        error = std::strerror(errno);
        return false;
    }
    int rc;
    do rc = ::flock(fd, LOCK_EX | LOCK_NB);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        held_elsewhere = errno == EWOULDBLOCK;
        error = held_elsewhere ? "another process holds it" : std::strerror(errno);
        ::close(fd);
        return false;
    }
    lock.handle_ = reinterpret_cast<void*>(static_cast<std::intptr_t>(fd) + 1);
    return true;
}

}  // namespace platform
