// POSIX path confinement: the held roots and the symlink-free walk down from them (see
// confinement_posix.hpp). Linux uses openat2(2); older kernels, seccomp filters that refuse it,
// and macOS take one O_NOFOLLOW openat per component.
#include "os/confinement_posix.hpp"

#include <atomic>
#include <memory>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#define MCP_EDIT_HAVE_OPENAT2 1
#endif

#include "os/confinement.hpp"
#include "os/paths.hpp"
#include "os/error_text.hpp"

namespace os {

namespace {

struct HeldRoot {
    std::string path;  // a real path, no trailing '/' (except "/" itself)
    int fd = -1;       // open while any hold of it lives
    dev_t dev = 0;     // the folder `fd` holds: what `path` named when it was held
    ino_t ino = 0;
    HeldRoot(std::string p, int f, dev_t d, ino_t i) : path(std::move(p)), fd(f), dev(d), ino(i) {}
    HeldRoot(const HeldRoot&) = delete;
    HeldRoot& operator=(const HeldRoot&) = delete;
    ~HeldRoot() { ::close(fd); }
};

// The held roots by path: one entry per path, found while any hold of it lives (a workspace's,
// or a call's that walks from it), pruned when the last one goes.
struct HeldEntry {
    std::string path;
    std::weak_ptr<HeldRoot> root;
};

std::shared_mutex held_mutex;
std::vector<HeldEntry>& held_roots() {
    // Leaked on purpose: a workspace or a pool thread may use it while static objects are destroyed.
    static auto* roots = new std::vector<HeldEntry>;
    return *roots;
}
// hold_directory's roots: held until the process ends.
std::vector<RootHold>& kept_roots() {
    static auto* roots = new std::vector<RootHold>;  // leaked: held until the process ends
    return *roots;
}

bool path_is_under_root(std::string_view path, std::string_view root) {
    if (path.size() < root.size() || path.substr(0, root.size()) != root) return false;
    return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

// The live held root with the longest path that contains `path`, or nullptr; the caller holds
// held_mutex.
std::shared_ptr<HeldRoot> best_held_root(const std::string& path) {
    std::shared_ptr<HeldRoot> best;
    for (const auto& entry : held_roots()) {
        if (!path_is_under_root(path, entry.path) || (best && entry.path.size() <= best->path.size())) continue;
        if (auto live = entry.root.lock()) best = std::move(live);
    }
    return best;
}

// `path`'s part below `root`, which contains it ("" for the root itself).
std::string part_below_root(const std::string& path, const HeldRoot& root) {
    std::size_t skip = root.path.size();
    while (skip < path.size() && path[skip] == '/') ++skip;
    return path.substr(skip);
}

// The held root with the longest path that contains `path` (kept open while this lives) and
// `path`'s part below it ("" for the root itself); no root when none holds it.
struct HeldLookup {
    std::shared_ptr<HeldRoot> root;
    std::string relative;
    int fd() const { return root ? root->fd : -1; }
};
HeldLookup held_root_of(const std::string& path) {
    std::shared_lock lock(held_mutex);
    HeldLookup out;
    out.root = best_held_root(path);
    if (out.root) out.relative = part_below_root(path, *out.root);
    return out;
}

std::string without_trailing_slashes(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

// One component, followed by no symlink: a directory below `fd` (which stays open).
posix::Fd open_component(int fd, std::string_view name) {
    if (name.empty() || name == "." || name == ".." || name.size() > 4096) {
        errno = EXDEV;
        return posix::Fd{};
    }
    const std::string component(name);
    int child;
    do child = ::openat(fd, component.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    while (child < 0 && errno == EINTR);
    return posix::Fd{child};
}

#ifdef MCP_EDIT_HAVE_OPENAT2
std::atomic<bool> openat2_refused{false};  // ENOSYS (old kernel) or EPERM (a seccomp filter)
#endif

// A descriptor of its own for the directory `fd` (a new open file description: a lock taken on it
// is not shared with the held root's descriptor, which is never closed).
posix::Fd reopen(int fd) {
    int again;
    do again = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (again < 0 && errno == EINTR);
    return posix::Fd{again};
}

// `relative` (no leading '/') below the directory `root_fd`, followed by no symlink and no "..".
posix::Fd walk_below(int root_fd, const std::string& relative) {
    if (relative.empty()) return reopen(root_fd);
#ifdef MCP_EDIT_HAVE_OPENAT2
    if (!openat2_refused.load(std::memory_order_relaxed)) {
        open_how how{};
        how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        long fd;
        do fd = ::syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof how);
        while (fd < 0 && (errno == EINTR || errno == EAGAIN));
        if (fd >= 0) return posix::Fd{static_cast<int>(fd)};
        if (errno != ENOSYS && errno != EPERM) return posix::Fd{};
        openat2_refused = true;
    }
#endif
    posix::Fd current = reopen(root_fd);
    std::string_view rest = relative;
    while (current && !rest.empty()) {
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
        current = open_component(current.get(), name);
    }
    return current;
}

void split_parent(const std::string& path, std::string& parent, std::string& name) {
    parent = os::parent_of(path);
    name = std::string(os::name_of(path));
}

}  // namespace

base::Result<RootHold, std::string> hold_root(const std::string& real_dir) {
    if (real_dir.empty() || real_dir[0] != '/') return base::fail(real_dir + " is not an absolute path");
    std::string path = without_trailing_slashes(real_dir);
    int fd;
    do fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) return base::fail(path + " cannot be held open: " + error_text(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return base::fail(path + " cannot be held open: " + error_text(err));
    }
    std::unique_lock lock(held_mutex);
    auto& roots = held_roots();
    std::erase_if(roots, [](const HeldEntry& e) { return e.root.expired(); });
    for (auto& entry : roots) {
        if (entry.path != path) continue;
        if (auto live = entry.root.lock(); live && live->dev == st.st_dev && live->ino == st.st_ino) {
            ::close(fd);
            return RootHold(std::move(live));
        }
        // The path names another folder now: later lookups find the new one; the old one stays
        // open for the holds that still have it.
        auto fresh = std::make_shared<HeldRoot>(path, fd, st.st_dev, st.st_ino);
        entry.root = fresh;
        return RootHold(std::move(fresh));
    }
    if (roots.size() >= max_held_roots) {
        ::close(fd);
        return base::fail(path + " cannot be used: this server already holds " + std::to_string(max_held_roots) +
                          " root folders open (the roots in use, including those of calls still running), and no "
                          "file is ever reached by name instead");
    }
    auto fresh = std::make_shared<HeldRoot>(path, fd, st.st_dev, st.st_ino);
    roots.push_back({std::move(path), fresh});
    return RootHold(std::move(fresh));
}

void hold_directory(const std::string& real_dir) {
    auto held = hold_root(real_dir);
    if (!held) return;  // the workspace reports unusable roots itself
    std::unique_lock lock(held_mutex);
    kept_roots().push_back(std::move(held).value());
}

RootState root_state(const std::string& real_root) {
    const std::string path = without_trailing_slashes(real_root);
    std::shared_ptr<HeldRoot> root;
    {
        std::shared_lock lock(held_mutex);
        for (const auto& entry : held_roots())
            if (entry.path == path) root = entry.root.lock();
    }
    if (!root) return RootState::not_held;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || st.st_dev != root->dev || st.st_ino != root->ino) return RootState::moved;
    return RootState::held;
}

std::size_t held_root_count() {
    std::shared_lock lock(held_mutex);
    std::size_t n = 0;
    for (const auto& entry : held_roots()) n += entry.root.expired() ? 0 : 1;
    return n;
}

namespace posix {

bool under_held_root(const std::string& path) { return held_root_of(path).root != nullptr; }

Fd open_directory(const std::string& dir) {
    const HeldLookup held = held_root_of(dir);
    if (!held.root) {
        int fd;
        do fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        return Fd{fd};
    }
    return walk_below(held.fd(), held.relative);
}

bool already_real(const std::string& path) {
#ifdef __linux__
    if (path.size() < 2 || path[0] != '/' || path.back() == '/' || path.find("//") != std::string::npos) return false;
    std::shared_ptr<HeldRoot> root;
    std::string relative;
    {
        // The root's path must still name the folder held for it (no rename, no symlink put in
        // its place since): else the name and the held folder part, and realpath says where the
        // name leads now.
        std::shared_lock lock(held_mutex);
        root = best_held_root(path);
        if (!root) return false;
        struct stat st {};
        if (::lstat(root->path.c_str(), &st) != 0 || st.st_dev != root->dev || st.st_ino != root->ino) return false;
        relative = part_below_root(path, *root);
    }
    if (relative.empty()) return true;
    std::string_view rest = relative;
    for (;;) {
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        if (name.empty() || name == "." || name == "..") return false;
        if (slash == std::string_view::npos) break;
        rest.remove_prefix(slash + 1);
    }
    const auto last = relative.rfind('/');
    Fd parent = last == std::string::npos ? Fd::borrow(root->fd, root) : walk_below(root->fd, relative.substr(0, last));
    if (!parent) return false;
    struct stat st {};
    const std::string name = last == std::string::npos ? relative : relative.substr(last + 1);
    return ::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode);
#else
    (void)path;
    return false;
#endif
}

bool locate(const std::string& path, Located& out) {
    std::string parent;
    split_parent(path, parent, out.name);
    if (out.name.empty() || out.name == "." || out.name == "..") {
        errno = EINVAL;
        return false;
    }
    HeldLookup held = held_root_of(parent);
    if (held.root && held.relative.empty()) {
        const int root_fd = held.fd();
        out.dir = Fd::borrow(root_fd, std::move(held.root));  // open while out.dir lives
    } else {
        out.dir = open_directory(parent);
    }
    return static_cast<bool>(out.dir);
}

bool locate_creating(const std::string& path, bool sync, Located& out) {
    std::string parent;
    split_parent(path, parent, out.name);
    if (out.name.empty() || out.name == "." || out.name == "..") {
        errno = EINVAL;
        return false;
    }
    HeldLookup held = held_root_of(parent);
    const int root_fd = held.fd();
    std::string relative = std::move(held.relative);
    std::string start = "/";
    if (root_fd < 0) relative = parent.size() > 1 ? parent.substr(1) : "";
    Fd current = root_fd >= 0 ? reopen(root_fd) : Fd{::open(start.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    std::string_view rest = relative;
    while (current && !rest.empty()) {
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
        if (name.empty()) continue;
        Fd child = root_fd >= 0
                       ? open_component(current.get(), name)
                       : Fd{::openat(current.get(), std::string(name).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
        if (!child && errno == ENOENT) {
            if (::mkdirat(current.get(), std::string(name).c_str(), 0777) != 0 && errno != EEXIST) return false;
            if (sync && durable_sync(current.get()) != 0 && errno != EINVAL) return false;
            child = open_component(current.get(), name);
        }
        current = std::move(child);
    }
    out.dir = std::move(current);
    return static_cast<bool>(out.dir);
}

std::string walk_error(const std::string& path, int err) {
    if (err == ELOOP || err == ENOTDIR || err == EXDEV)
        return "the path " + path +
               " changed after it was checked (a folder on it, or the file itself, was replaced by a symlink or "
               "something else), so nothing was done there; call again and the path is resolved afresh";
    return error_text(err);
}

int durable_sync(int fd) {
#ifdef __APPLE__
    if (::fcntl(fd, F_FULLFSYNC) == 0) return 0;
#endif
    return ::fsync(fd);
}

}  // namespace posix

}  // namespace os
