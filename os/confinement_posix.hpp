// POSIX path confinement: the roots' directory descriptors, held while a workspace (or a call
// walking from one) uses them (see os/confinement.hpp), and the walk from one of them down to a
// path, following no symlink. Shared by the reading and the writing half of this layer, so both
// act on the folders they checked, never on a name looked up again (a folder swapped for a symlink mid-call cannot send a read or a write outside).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "os/file_status.hpp"

namespace os::posix {

// An owned file descriptor, closed when it goes; or, made by borrow(), a held root's, which it
// never closes and keeps open (through `keep`, the root's hold) while it lives.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    static Fd borrow(int fd, std::shared_ptr<const void> keep) {
        Fd out(fd);
        out.owned_ = false;
        out.keep_ = std::move(keep);
        return out;
    }
    Fd(Fd&& o) noexcept
        : fd_(std::exchange(o.fd_, -1)), owned_(std::exchange(o.owned_, true)), keep_(std::move(o.keep_)) {}
    Fd& operator=(Fd&& o) noexcept {
        if (this != &o) {
            reset();
            fd_ = std::exchange(o.fd_, -1);
            owned_ = std::exchange(o.owned_, true);
            keep_ = std::move(o.keep_);
        }
        return *this;
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    explicit operator bool() const { return fd_ >= 0; }
    bool borrowed() const { return fd_ >= 0 && !owned_; }
    // Only for an owned descriptor: the caller closes it from here.
    int release() { return owned_ ? std::exchange(fd_, -1) : -1; }
    void reset() {
        if (fd_ >= 0 && owned_) ::close(fd_);
        fd_ = -1;
        owned_ = true;
        keep_.reset();
    }

private:
    int fd_ = -1;
    bool owned_ = true;
    std::shared_ptr<const void> keep_;  // a borrowed descriptor's root hold
};

// Whether `path` lies under a held root (see os::hold_directory).
bool under_held_root(const std::string& path);

// The kind of file a stat mode says, and a stat as FileStat (file_status_posix.cpp).
FileKind kind_of_mode(mode_t mode);
FileStat from_stat(const struct stat& st);

// The directory `dir` (an absolute real path), opened O_RDONLY | O_DIRECTORY | O_CLOEXEC. Under a
// held root it is reached from the root's descriptor with no symlink and no `..` followed
// (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS on Linux, else one O_NOFOLLOW openat per
// component): ELOOP or ENOTDIR then means the tree changed after the path was checked. Elsewhere
// (the server's own files: the journal, scratch folders) it is opened by name. -1 with errno set.
Fd open_directory(const std::string& dir);

// The folder holding `path` and the last component's name in it; false with errno set. A file
// directly in a held root gets the root's own descriptor, borrowed (no open, no close; the root
// stays held while it lives): do not
// flock it (a lock needs a descriptor of its own; see lock_folder).
struct Located {
    Fd dir;
    std::string name;
};
bool locate(const std::string& path, Located& out);

// Like locate(), creating the missing folders between the held root (or "/") and `path`'s
// parent (mode 0777 less the umask; each parent synced when `sync`).
bool locate_creating(const std::string& path, bool sync, Located& out);

// Whether `path` is already its own real path, settled without realpath(3)'s readlink on every
// component: it lies under a held root, is spelled plainly (no "//", ".", ".." or trailing '/'),
// and each component below the root exists and is no symlink. False says nothing: ask realpath.
// Linux only (macOS's realpath also corrects the letter case a case-insensitive volume ignores).
bool already_real(const std::string& path);

// The message for a failed confined walk: errno ELOOP/ENOTDIR/EXDEV become "a folder on the path
// of X was replaced (by a symlink or a file) after the path was checked".
std::string walk_error(const std::string& path, int err);

// fsync, made durable (F_FULLFSYNC on macOS).
int durable_sync(int fd);

}  // namespace os::posix
