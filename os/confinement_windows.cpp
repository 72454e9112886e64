// Windows path confinement: the held roots, and the folders from one of them down to a path,
// opened without delete sharing and checked by handle (no junction, no symlink), held while a
// file in them is read, staged, renamed or removed (see windows_system.hpp).
#include "os/confinement.hpp"
#include "os/system_paths.hpp"
#include "os/windows_system.hpp"

#include <memory>
#include <mutex>
#include <string_view>

namespace os {

namespace {

// A held root: its path, found while any hold of it lives (see os/confinement.hpp). Windows pins
// the folders from it down by handle per operation (pin_folders) rather than keeping one open.
struct HeldRoot {
    std::string path;
};
struct HeldEntry {
    std::string path;
    std::weak_ptr<HeldRoot> root;
};

std::mutex held_mutex;
std::vector<HeldEntry>& held_roots() {
    // Leaked on purpose: a workspace or a pool thread may use it while static objects are destroyed.
    static auto* roots = new std::vector<HeldEntry>;
    return *roots;
}
std::vector<RootHold>& kept_roots() {                // hold_directory's, kept until the process ends
    static auto* roots = new std::vector<RootHold>;  // leaked: held until the process ends
    return *roots;
}

bool path_is_under_root(std::string_view path, std::string_view root) {
    if (path.size() < root.size() || !same_path(path.substr(0, root.size()), root)) return false;
    return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

}  // namespace

base::Result<RootHold, std::string> hold_root(const std::string& real_dir) {
    std::lock_guard lock(held_mutex);
    auto& roots = held_roots();
    std::erase_if(roots, [](const HeldEntry& e) { return e.root.expired(); });
    for (const auto& entry : roots)
        if (same_path(entry.path, real_dir))
            if (auto live = entry.root.lock()) return RootHold(std::move(live));
    if (roots.size() >= max_held_roots)
        return base::fail(real_dir + " cannot be used: this server already holds " + std::to_string(max_held_roots) +
                          " root folders (the roots in use, including those of calls still running), and no file is "
                          "ever reached by name instead");
    auto fresh = std::make_shared<HeldRoot>(HeldRoot{real_dir});
    roots.push_back({real_dir, fresh});
    return RootHold(std::move(fresh));
}

void hold_directory(const std::string& real_dir) {
    auto held = hold_root(real_dir);
    if (!held) return;
    std::lock_guard lock(held_mutex);
    kept_roots().push_back(std::move(held).value());
}

RootState root_state(const std::string& real_root) {
    std::lock_guard lock(held_mutex);
    for (const auto& entry : held_roots())
        if (same_path(entry.path, real_root) && !entry.root.expired()) return RootState::held;
    return RootState::not_held;
}

std::size_t held_root_count() {
    std::lock_guard lock(held_mutex);
    std::size_t n = 0;
    for (const auto& entry : held_roots()) n += entry.root.expired() ? 0 : 1;
    return n;
}

namespace win {

PinnedFolders::~PinnedFolders() {
    for (auto it = handles_.rbegin(); it != handles_.rend(); ++it) CloseHandle(*it);
}

base::Result<void> pin_folders(const std::string& dir, PinnedFolders& out) {
    std::string root;
    {
        std::lock_guard lock(held_mutex);
        for (const auto& held : held_roots())
            if (!held.root.expired() && path_is_under_root(dir, held.path) && held.path.size() > root.size())
                root = held.path;
    }
    if (root.empty()) return {};
    out.confined_ = true;
    std::string path = root;
    std::string_view rest = std::string_view(dir).substr(root.size());
    for (;;) {
        // FILE_LIST_DIRECTORY without FILE_SHARE_DELETE: renaming or removing the folder (which
        // needs DELETE access) fails while the handle is open; our own pins share read and write.
        HANDLE h = CreateFileW(system_path(path).c_str(), FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES,
                               FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                               FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
        BY_HANDLE_FILE_INFORMATION info{};
        const bool folder = h != INVALID_HANDLE_VALUE && GetFileInformationByHandle(h, &info) &&
                            (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
                            !(info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
        if (h != INVALID_HANDLE_VALUE) out.handles_.push_back(h);
        if (!folder)
            return base::fail(base::Failure{
                "the path " + dir +
                    " changed after it was checked (a folder on it was replaced by a junction, a symlink or "
                    "something else, or removed), so nothing was done there; call again and the path is resolved "
                    "afresh",
                base::ErrorReason::conflict});
        while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
        if (rest.empty()) return {};
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
        if (name == "." || name == "..")
            return base::fail(
                base::Failure{"the path " + dir + " is not a real path", base::ErrorReason::invalid_arguments});
        if (path.back() != '/') path += '/';
        path += name;
    }
}

}  // namespace win

}  // namespace os
