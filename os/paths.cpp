// parent_of, name_of, relative_to_root, is_within and join_path: the file system's root comes from
// os/system_paths.hpp (POSIX "/", Windows "C:/" or a UNC share), the rest is the last '/'.
#include "os/paths.hpp"

#include "os/system_paths.hpp"

namespace os {

std::string parent_of(std::string_view path) {
    const std::string root = os::filesystem_root(path);
    if (!root.empty() && path.size() <= root.size()) return root;
    const auto slash = path.find_last_of('/');
    if (slash == std::string_view::npos) return ".";
    if (slash + 1 <= root.size()) return root;
    return std::string(path.substr(0, slash));
}

std::string_view name_of(std::string_view path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string relative_to_root(const std::string& root, const std::string& real) {
    if (real.size() <= root.size()) return {};
    return real.substr(root.size() + (root.back() == '/' ? 0 : 1));
}

std::string join_path(const std::string& base, const std::string& rest) {
    if (rest.empty()) return base;
    if (base.empty() || base.back() == '/') return base + rest;
    return base + "/" + rest;
}

bool is_within(const std::string& path, const std::string& root) {
    if (path.size() < root.size() || !os::same_path(std::string_view(path).substr(0, root.size()), root)) return false;
    // A file system's root ("/", "C:/") ends with its separator; any other root is followed by one.
    return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

}  // namespace os
