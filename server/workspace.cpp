// Roots and path resolution (contract section 7).
#include "server/workspace.hpp"

#include <cctype>
#include <cerrno>

#include "server/platform.hpp"

namespace server {

namespace {

bool is_within(const std::string& path, const std::string& root) {
    if (root == "/") return !path.empty() && path[0] == '/';
    return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                            path[root.size()] == '/');
}

std::string join(const std::string& base, const std::string& rest) {
    if (rest.empty()) return base;
    if (base.empty() || base.back() == '/') return base + rest;
    return base + "/" + rest;
}

std::string parent_of(const std::string& p) {
    const auto slash = p.find_last_of('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return p.substr(0, slash);
}

std::string name_of(const std::string& p) {
    const auto slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

}  // namespace

Workspace::Workspace(const std::vector<std::string>& roots) {
    for (const auto& r : roots) {
        int err = 0;
        auto real = platform::real_path(r, &err);
        if (!real) {
            problems_.push_back("root " + r + ": " + platform::error_text(err));
            continue;
        }
        if (platform::stat_path(*real).kind != platform::FileKind::directory) {
            problems_.push_back("root " + r + ": not a directory");
            continue;
        }
        bool duplicate = false;
        for (const auto& known : roots_) duplicate = duplicate || known == *real;
        if (!duplicate) roots_.push_back(*real);
    }
}

namespace {

// "file:///a%20b" -> "/a b"; anything else that is not an absolute path -> "".
std::string path_from_root_uri(const std::string& uri) {
    std::string rest;
    if (uri.rfind("file://", 0) == 0) {
        rest = uri.substr(7);
        if (rest.rfind("localhost/", 0) == 0) rest = rest.substr(9);
    } else {
        rest = uri;
    }
    if (rest.empty() || rest[0] != '/') return "";
    std::string out;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '%' && i + 2 < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(rest[i + 2]))) {
            out += static_cast<char>(std::stoi(rest.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += rest[i];
        }
    }
    return out;
}

}  // namespace

Workspace Workspace::narrowed(const std::vector<std::string>& client_roots) const {
    std::vector<std::string> allowed;
    for (const auto& uri : client_roots) {
        const std::string p = path_from_root_uri(uri);
        if (p.empty()) continue;
        const auto real = platform::real_path(p);
        if (!real) continue;
        for (const auto& root : roots_) {
            if (is_within(*real, root)) allowed.push_back(*real);       // the client narrows this root
            else if (is_within(root, *real)) allowed.push_back(root);   // the client root is wider: keep ours
        }
    }
    Workspace out(allowed);
    if (allowed.empty()) out.problems_.push_back("the client's roots do not overlap the server's --root directories");
    return out;
}

bool Workspace::inside_roots(const std::string& real) const {
    for (const auto& root : roots_)
        if (is_within(real, root)) return true;
    return false;
}

std::string Workspace::display_path(const std::string& real) const {
    for (const auto& root : roots_) {
        if (real == root) return ".";
        if (is_within(real, root)) return root == "/" ? real.substr(1) : real.substr(root.size() + 1);
    }
    return real;
}

bool Workspace::resolve(const std::string& path, ResolvedPath& out, PathError& error) const {
    auto roots_text = [&] {
        std::string s;
        for (const auto& r : roots_) s += (s.empty() ? "" : ", ") + r;
        return s;
    };
    if (path.empty()) {
        error.message = "file_path is empty: pass a path relative to " + roots_text() + " or an absolute path inside it.";
        return false;
    }
    if (path.find('\0') != std::string::npos) {
        error.message = "file_path contains a NUL byte and was refused.";
        return false;
    }
    if (roots_.empty()) {
        error.message = problems_.empty() ? "no usable root is configured; start the server with --root DIR."
                                          : "no usable root: " + problems_.front() + ". Nothing inside them can be touched.";
        return false;
    }
    const std::string absolute = path[0] == '/' ? path : join(roots_.front(), path);
    auto outside = [&](const std::string& real) {
        error.message = "Refused: " + path + " resolves to " + real +
                        ", which is outside the allowed roots (" + roots_text() +
                        "). Use a path inside one of them, e.g. a path relative to " + roots_.front() + ".";
        return false;
    };

    int err = 0;
    if (auto real = platform::real_path(absolute, &err)) {
        if (!inside_roots(*real)) return outside(*real);
        out.real = *real;
        out.display = display_path(*real);
        out.exists = true;
        return true;
    }
    if (err != ENOENT) {
        if (err == ENOTDIR) {
            error.message = "Cannot resolve " + path + ": a component of the path is a file, not a directory.";
        } else if (err == ELOOP) {
            error.message = "Cannot resolve " + path + ": too many levels of symbolic links.";
        } else {
            error.message = "Cannot resolve " + path + ": " + platform::error_text(err) + ".";
        }
        return false;
    }

    // Missing: walk up to the nearest existing ancestor, which must resolve inside a root. The
    // missing tail may not contain `..` (it could not be checked), nor be a dangling symlink.
    std::vector<std::string> tail;
    std::string cursor = absolute;
    for (int guard = 0; guard < 4096; ++guard) {
        std::string name = name_of(cursor);
        if (name == "..") {
            error.message = "Refused: " + path + " uses `..` in a part of the path that does not exist yet. Pass the path without `..`.";
            return false;
        }
        if (!name.empty() && name != ".") tail.push_back(name);
        cursor = parent_of(cursor);
        int perr = 0;
        if (auto real = platform::real_path(cursor, &perr)) {
            if (!inside_roots(*real)) return outside(*real);
            if (platform::stat_path(*real).kind != platform::FileKind::directory) {
                error.message = "Cannot create " + path + ": " + *real + " is not a directory.";
                return false;
            }
            std::string result = *real;
            for (auto it = tail.rbegin(); it != tail.rend(); ++it) result = join(result, *it);
            if (platform::is_symlink(absolute)) {
                error.message = "Refused: " + path + " is a symbolic link whose target does not exist; a write through it could land outside the roots.";
                return false;
            }
            out.real = result;
            out.display = display_path(result);
            out.exists = false;
            return true;
        }
        if (perr != ENOENT) {
            error.message = "Cannot resolve " + path + ": " + platform::error_text(perr) + ".";
            return false;
        }
        if (cursor == "/") break;
    }
    error.message = "Cannot resolve " + path + ".";
    return false;
}

}  // namespace server
