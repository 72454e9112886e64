// POSIX implementation of platform.hpp's writing half: a replacement staged in a temp file beside
// the target (its mode and owner copied), made durable (fsync, F_FULLFSYNC on macOS) and renamed
// over it, the directory synced; in-place overwrites, directories, private files and the advisory
// lock (flock) that keeps a second server out of a history journal.
#include "os/platform.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <dirent.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/confinement_posix.hpp"
#include "os/crypto.hpp"
#include "os/paths.hpp"

namespace platform {

namespace {

using posix::durable_sync;
using posix::Fd;
using posix::Located;

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

bool sync_directory(int dir_fd, const std::string& dir, std::string& error) {
    if (durable_sync(dir_fd) != 0 && errno != EINVAL) {
        error = "fsync of directory " + dir + ": " + error_text(errno);
        return false;
    }
    return true;
}

constexpr std::string_view temp_marker = ".mcp-edit-";
constexpr std::size_t temp_suffix_size = 10;

std::string random_suffix() {
    // From the system's generator (os/crypto), not std::random_device: libstdc++'s would tie the
    // portable Linux executable to glibc 2.36 (arc4random).
    std::array<unsigned char, temp_suffix_size> bytes{};
    os::crypto::random_bytes(bytes);
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s;
    for (const unsigned char b : bytes) s += alphabet[b % (sizeof alphabet - 1)];
    return s;
}

// Is `name` a staging temp file (".NAME.mcp-edit-XXXXXXXXXX"), the kind a killed server leaves?
bool is_staging_temp(std::string_view name) {
    if (name.size() < 2 + temp_marker.size() + temp_suffix_size || name[0] != '.') return false;
    const std::size_t marker = name.size() - temp_suffix_size - temp_marker.size();
    if (name.substr(marker, temp_marker.size()) != temp_marker) return false;
    for (char c : name.substr(name.size() - temp_suffix_size))
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    return true;
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
    std::vector<std::string> stale;
    std::size_t seen = 0;
    while (const dirent* entry = ::readdir(dir)) {
        if (++seen > 1'000'000) break;
        if (is_staging_temp(entry->d_name)) stale.emplace_back(entry->d_name);
        if (stale.size() >= 1024) break;
    }
    for (const auto& name : stale) {
        Fd temp{::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
        if (!temp || ::flock(temp.get(), LOCK_EX | LOCK_NB) != 0) continue;
        struct stat ts {};
        if (::fstat(temp.get(), &ts) != 0 || !S_ISREG(ts.st_mode)) continue;
        ::unlinkat(dir_fd, name.c_str(), 0);
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

// Creates a fresh temp file in `dir_fd` beside `name`; -1 with `error`.
int create_temp_in(int dir_fd, const std::string& dir, const std::string& name, const char* purpose, mode_t mode,
                   std::string& temp_name, std::string& error) {
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp_name = "." + name + "." + purpose + "-" + random_suffix();
        const int fd = ::openat(dir_fd, temp_name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0) return fd;
        if (errno != EEXIST) {
            error = "cannot create a temp file in " + dir + ": " + error_text(errno);
            return -1;
        }
    }
    error = "cannot create a temp file in " + dir + ": too many name collisions";
    return -1;
}

bool locate_for_write(const std::string& path, Located& at, std::string& error) {
    if (posix::locate(path, at)) return true;
    error = posix::walk_error(path, errno);
    return false;
}

}  // namespace

bool stage_write(const std::string& target, std::string_view bytes, const FileStat* like, bool sync,
                 StagedWrite& out, std::string& error) {
    out.target = target;
    Located at;
    if (!locate_for_write(target, at, error)) return false;
    sweep_stale_temps(at.dir.get());
    auto staging = std::make_shared<Staging>();
    staging->name = at.name;
    const std::string dir = os::parent_of(target);
    staging->temp = Fd{create_temp_in(at.dir.get(), dir, at.name, "mcp-edit", like ? 0600 : 0666, staging->temp_name, error)};
    if (!staging->temp) return false;
    out.temp_path = dir + "/" + staging->temp_name;
    const int fd = staging->temp.get();
    ::flock(fd, LOCK_SH | LOCK_NB);  // says "a live server's" to sweep_stale_temps elsewhere
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
    if (!ok) {
        ::unlinkat(at.dir.get(), staging->temp_name.c_str(), 0);
        return false;
    }
    staging->dir = std::move(at.dir);
    out.held = staging;
    return true;
}

bool commit_staged(const StagedWrite& staged, bool sync, std::string& error) {
    auto* staging = static_cast<Staging*>(staged.held.get());
    if (!staging) {
        error = "nothing is staged for " + staged.target;
        return false;
    }
    // The folder is reached from its root again: it must still be the one the temp file is in.
    Located now;
    struct stat then_st {}, now_st {};
    const bool same_folder = posix::locate(staged.target, now) && ::fstat(now.dir.get(), &now_st) == 0 &&
                             ::fstat(staging->dir.get(), &then_st) == 0 && now_st.st_dev == then_st.st_dev &&
                             now_st.st_ino == then_st.st_ino;
    if (!same_folder) {
        error = "cannot write " + staged.target + ": " +
                posix::walk_error(staged.target, now.dir ? ENOTDIR : errno);
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
        return false;
    }
    if (::renameat(staging->dir.get(), staging->temp_name.c_str(), staging->dir.get(), staging->name.c_str()) != 0) {
        error = "cannot rename the new file over " + staged.target + ": " + error_text(errno);
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
        return false;
    }
    staging->temp.reset();
    return !sync || sync_directory(staging->dir.get(), os::parent_of(staged.target), error);
}

void discard_staged(const StagedWrite& staged) {
    if (auto* staging = static_cast<Staging*>(staged.held.get()))
        ::unlinkat(staging->dir.get(), staging->temp_name.c_str(), 0);
}

bool overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes, bool sync,
                        std::string& error) {
    Located at;
    if (!locate_for_write(target, at, error)) return false;
    const std::string dir = os::parent_of(target);
    // 1. A durable copy of the old bytes, so a crash in step 2 leaves something to recover from.
    std::string backup;
    const Fd bfd{create_temp_in(at.dir.get(), dir, at.name, "mcp-edit-backup", 0600, backup, error)};
    if (!bfd) return false;
    bool ok = write_all(bfd.get(), old_bytes, error) && (!sync || durable_sync(bfd.get()) == 0);
    if (!ok) {
        ::unlinkat(at.dir.get(), backup.c_str(), 0);
        return false;
    }
    // 2. The new bytes over the file, then its length; the inode (and so every link) stays.
    const Fd fd{::openat(at.dir.get(), at.name.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)};
    if (!fd) {
        error = "cannot open " + target + " for writing: " + posix::walk_error(target, errno);
        ::unlinkat(at.dir.get(), backup.c_str(), 0);
        return false;
    }
    ok = write_all(fd.get(), bytes, error);
    if (ok && ::ftruncate(fd.get(), static_cast<off_t>(bytes.size())) != 0) {
        error = "ftruncate: " + error_text(errno);
        ok = false;
    }
    if (ok && sync && durable_sync(fd.get()) != 0) {
        error = "fsync: " + error_text(errno);
        ok = false;
    }
    if (!ok) {
        error += "; the previous content is kept in " + dir + "/" + backup;
        return false;
    }
    ::unlinkat(at.dir.get(), backup.c_str(), 0);
    return true;
}

bool make_directories(const std::string& dir, bool sync, std::string& error) {
    if (dir.empty() || dir == "/") return true;
    Located at;
    // The folder itself is `dir`'s last component: create the way down to it, then it.
    if (!posix::locate_creating(dir, sync, at)) {
        error = "cannot create the folders of " + dir + ": " + posix::walk_error(dir, errno);
        return false;
    }
    struct stat st {};
    if (::fstatat(at.dir.get(), at.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISDIR(st.st_mode)) return true;
        error = dir + " exists and is not a directory";
        return false;
    }
    if (::mkdirat(at.dir.get(), at.name.c_str(), 0777) != 0 && errno != EEXIST) {
        error = "cannot create directory " + dir + ": " + error_text(errno);
        return false;
    }
    return !sync || sync_directory(at.dir.get(), os::parent_of(dir), error);
}

bool remove_file(const std::string& path, bool sync, std::string& error) {
    Located at;
    if (!locate_for_write(path, at, error) || ::unlinkat(at.dir.get(), at.name.c_str(), 0) != 0) {
        if (error.empty()) error = "cannot remove " + path + ": " + error_text(errno);
        return false;
    }
    return !sync || sync_directory(at.dir.get(), os::parent_of(path), error);
}

bool remove_empty_directory(const std::string& path, bool sync, std::string& error) {
    Located at;
    if (!locate_for_write(path, at, error)) return false;
    if (::unlinkat(at.dir.get(), at.name.c_str(), AT_REMOVEDIR) != 0) {
        error = errno == ENOTEMPTY || errno == EEXIST ? "the folder is not empty" : error_text(errno);
        return false;
    }
    return !sync || sync_directory(at.dir.get(), os::parent_of(path), error);
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

bool lock_folder(const std::string& dir, std::chrono::milliseconds wait, FileLock& lock, std::string& error) {
    Fd fd = posix::open_directory(dir);
    if (!fd) {
        error = "cannot open the folder " + dir + " to lock it: " + posix::walk_error(dir, errno);
        return false;
    }
    const auto deadline = std::chrono::steady_clock::now() + wait;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) break;
        if (errno != EWOULDBLOCK && errno != EINTR) {
            error = "cannot lock the folder " + dir + ": " + error_text(errno);
            return false;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            error = "another mcp-edit process has held the lock of the folder " + dir + " for over " +
                    std::to_string(wait.count() / 1000) + " s";
            return false;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
    lock.handle_ = reinterpret_cast<void*>(static_cast<std::intptr_t>(fd.release()) + 1);
    return true;
}

}  // namespace platform
