// POSIX implementation of platform.hpp: realpath, stat, and non-blocking reads of regular files.
#include "os/platform.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include <random>

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

#include "text/byte_buffer.hpp"

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

void on_console_close(std::function<void()>) {}

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
                       ReadFailure& failure, bool keep_open) {
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
    out.bytes.clear();
    text::reserve_bytes(out.bytes, static_cast<std::size_t>(out.stat.size));
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
    if (keep_open) {
        out.open_file = std::shared_ptr<const void>(new int(fd), [](const int* kept) {
            ::close(*kept);
            delete kept;
        });
    } else {
        ::close(fd);
    }
    return true;
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
