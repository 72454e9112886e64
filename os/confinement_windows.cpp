// Windows path confinement: the held roots, and the folders from one of them down to a path,
// opened without delete sharing and checked by handle (no junction, no symlink), held while a
// file in them is read, staged, renamed or removed (see windows_system.hpp).
#include "os/platform.hpp"
#include "os/windows_system.hpp"

#include <mutex>
#include <string_view>

namespace platform {

namespace {

std::mutex held_mutex;
std::vector<std::string>& held_roots() {
    static std::vector<std::string> roots;  // leaked on purpose: used until the process ends
    return roots;
}
constexpr std::size_t max_held_roots = 256;

bool path_is_under_root(std::string_view path, std::string_view root) {
    if (path.size() < root.size() || !same_path(path.substr(0, root.size()), root)) return false;
    return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

}  // namespace

void hold_directory(const std::string& real_dir) {
    std::lock_guard lock(held_mutex);
    auto& roots = held_roots();
    for (const auto& root : roots)
        if (same_path(root, real_dir)) return;
    if (roots.size() < max_held_roots) roots.push_back(real_dir);
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
            if (path_is_under_root(dir, held) && held.size() > root.size()) root = held;
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
                    "something else, or removed), so nothing was done there; call again and the path is resolved afresh",
                base::ErrorReason::conflict});
        while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
        if (rest.empty()) return {};
        const auto slash = rest.find('/');
        const std::string_view name = rest.substr(0, slash);
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
        if (name == "." || name == "..")
            return base::fail(base::Failure{"the path " + dir + " is not a real path", base::ErrorReason::invalid_arguments});
        if (path.back() != '/') path += '/';
        path += name;
    }
}

}  // namespace win

}  // namespace platform
