// Roots, the client's roots, and path resolution.
#include "os/workspace.hpp"

#include <cctype>
#include <cerrno>
#include <utility>

#include "os/paths.hpp"
#include "os/platform.hpp"

namespace os {

namespace {

// Is `path` `root` or below it? Both are real paths; names compare as the file system compares
// them (case-insensitively on Windows).
bool is_within(const std::string& path, const std::string& root) {
    if (path.size() < root.size() || !platform::same_path(std::string_view(path).substr(0, root.size()), root)) return false;
    // A file system's root ("/", "C:/") ends with its separator; any other root is followed by one.
    return path.size() == root.size() || root.back() == '/' || path[root.size()] == '/';
}

// The real path of `path` as a root; fails with why it cannot be one ("/x does not exist").
base::Result<std::string, std::string> root_real_path(const std::string& path) {
    int err = 0;
    auto real = platform::real_path(path, &err);
    if (!real) {
        if (err == ENOENT) return base::fail(path + " does not exist");
        return base::fail(path + " cannot be used: " + platform::error_text(err));
    }
    if (platform::stat_path(*real).kind != platform::FileKind::directory) return base::fail(path + " is not a directory");
    return std::move(*real);
}

// For an absolute path outside the roots (say /repo/src/x.py, written for another machine's
// checkout): the longest of its tails ("src/x.py", then "x.py") that exists under `root`; "" when
// none does. Bounded: at most 64 tails are tried.
std::string existing_tail_inside(const std::string& root, const std::string& path) {
    if (!platform::is_absolute(path)) return "";
    const std::string normalized = platform::normalize_separators(path);
    std::string tail = normalized.substr(platform::filesystem_root(normalized).size());
    for (int tries = 0; tries < 64 && !tail.empty(); ++tries) {
        const auto slash = tail.find('/');
        if (slash == std::string::npos) break;  // the bare file name alone is too weak a guess
        tail = tail.substr(slash + 1);
        if (tail.empty() || tail.find("..") != std::string::npos) break;
        if (platform::real_path(join_path(root, tail))) return tail;
    }
    return "";
}

}  // namespace

Workspace::Workspace(const std::vector<std::string>& roots, std::string origin) : origin_(std::move(origin)) {
    for (const auto& r : roots) {
        auto real = root_real_path(r);
        if (!real) {
            problems_.push_back(std::move(real).error());
            continue;
        }
        bool duplicate = false;
        for (const auto& known : roots_) duplicate = duplicate || platform::same_path(known, *real);
        if (duplicate) continue;
        platform::hold_directory(*real);  // every later read and write beneath it starts from there
        roots_.push_back(std::move(real).value());
    }
}

std::string Workspace::list_text(const std::vector<std::string>& items) {
    constexpr std::size_t max_shown = 8;
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < max_shown; ++i) out += (i ? ", " : "") + items[i];
    if (items.size() > max_shown) out += " and " + std::to_string(items.size() - max_shown) + " more";
    return out;
}

namespace {

// "file:///a%20b" -> "/a b" ("file:///C:/a" -> "C:/a" on Windows); an absolute path as it is;
// anything else -> "".
std::string path_from_root_uri(const std::string& uri) {
    std::string rest;
    if (uri.rfind("file://", 0) == 0) {
        rest = uri.substr(7);
        if (rest.rfind("localhost/", 0) == 0) rest = rest.substr(9);
    } else {
        return platform::is_absolute(uri) ? platform::normalize_separators(uri) : "";
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
    // A drive letter after the URI's slash ("/C:/a") names a Windows path; on POSIX "/C:/a" is
    // already absolute and stays as it is.
    if (!platform::is_absolute(out) && out.size() > 1 && platform::is_absolute(out.substr(1))) out = out.substr(1);
    return platform::normalize_separators(std::move(out));
}

}  // namespace

Workspace::WithClientRoots Workspace::with_client_roots(const std::vector<std::string>& client_roots,
                                                        bool server_roots_given) const {
    if (client_roots.empty()) return {*this, ""};
    std::vector<std::string> sent;     // as the client named them (paths when file:// URIs)
    std::vector<std::string> usable;   // real paths of existing directories
    std::vector<std::string> problems;
    for (std::size_t i = 0; i < client_roots.size() && i < max_client_roots; ++i) {
        const std::string path = path_from_root_uri(client_roots[i]);
        if (path.empty()) {
            sent.push_back(client_roots[i]);
            problems.push_back(client_roots[i] + " is not a file:// URI");
            continue;
        }
        sent.push_back(path);
        auto real = root_real_path(path);
        if (!real) problems.push_back(std::move(real).error());
        else usable.push_back(std::move(real).value());
    }
    std::string theirs = list_text(sent);
    if (client_roots.size() > max_client_roots)
        theirs += " (and " + std::to_string(client_roots.size() - max_client_roots) + " more not examined)";
    const std::string ours = list_text(roots_);

    if (!server_roots_given) {
        // Started without --root: the client's roots are the roots; the working directory is only
        // the fallback.
        if (!usable.empty()) return {Workspace(usable, "the client's roots; this server was started without --root"), ""};
        Workspace fallback = *this;
        fallback.origin_ = "this server's working directory; the client's roots (" + theirs + ") cannot be used";
        std::string note;
        if (!roots_.empty())
            note = "The client's roots (" + theirs + ") cannot be used (" + problems.front() +
                   "); this server was started without --root, so its working directory (" + ours + ") is used.";
        return {std::move(fallback), std::move(note)};
    }

    // --root given: the client narrows it where they overlap and never widens it.
    std::vector<std::string> allowed;
    for (const auto& client : usable) {
        for (const auto& root : roots_) {
            if (is_within(client, root)) allowed.push_back(client);     // the client narrows this root
            else if (is_within(root, client)) allowed.push_back(root);  // the client's root is wider: ours stays
        }
    }
    if (!allowed.empty())
        return {Workspace(allowed, "where the client's roots (" + theirs + ") and this server's --root (" + ours + ") overlap"), ""};
    Workspace unchanged = *this;
    unchanged.origin_ = "this server's --root; the client's roots (" + theirs + ") are outside it";
    std::string note;
    if (roots_.empty()) {
        // No usable --root either: the server's own configuration problem says what to do.
    } else if (usable.empty()) {
        unchanged.origin_ = "this server's --root; the client's roots (" + theirs + ") cannot be used";
        note = "The client's roots (" + theirs + ") cannot be used (" + problems.front() + "); this server's --root (" +
               ours + ") is used.";
    } else {
        note = "The client's roots (" + theirs + ") are outside this server's --root (" + ours + "); --root is used.";
    }
    return {std::move(unchanged), std::move(note)};
}

bool Workspace::inside_roots(const std::string& real) const {
    for (const auto& root : roots_)
        if (is_within(real, root)) return true;
    return false;
}

const std::string* Workspace::root_of(const std::string& real) const {
    for (const auto& root : roots_)
        if (is_within(real, root)) return &root;
    return nullptr;
}

std::string Workspace::display_path(const std::string& real) const {
    for (const auto& root : roots_) {
        if (platform::same_path(real, root)) return ".";
        if (is_within(real, root)) return real.substr(root.size() + (root.back() == '/' ? 0 : 1));
    }
    return real;
}

base::Result<ResolvedPath, PathError> Workspace::resolve(const std::string& path) const {
    using base::ErrorReason;
    auto refuse = [](std::string message, ErrorReason reason = ErrorReason::invalid_arguments) {
        return base::fail(PathError{std::move(message), reason});
    };
    auto roots_text = [&] { return list_text(roots_) + (origin_.empty() ? "" : ": " + origin_); };
    if (path.empty())
        return refuse("file_path is empty: pass a path relative to " + list_text(roots_) + " or an absolute path inside it.");
    if (path.find('\0') != std::string::npos) return refuse("file_path contains a NUL byte and was refused.");
    if (roots_.empty()) {
        return refuse(problems_.empty() ? "no usable root is configured; start the server with --root DIR."
                                        : "no usable root: " + problems_.front() + ". Nothing inside them can be touched.",
                      ErrorReason::no_root);
    }
    // `~/x` (and `~`): the user's home, then checked against the roots like any absolute path.
    std::string absolute;
    if (path == "~" || path.starts_with("~/")) {
        const auto home = platform::home_directory();
        if (!home)
            return refuse("Cannot resolve " + path + ": the user's home directory is unknown ($HOME is not set). Pass an absolute path.");
        absolute = path == "~" ? *home : join_path(*home, path.substr(2));
    } else {
        const std::string normalized = platform::normalize_separators(path);
        if (platform::is_absolute(path))
            absolute = normalized;
        else if (normalized[0] == '/')  // Windows: rooted on the current drive, here the first root's
            absolute = platform::filesystem_root(roots_.front()) + normalized.substr(1);
        else
            absolute = join_path(roots_.front(), normalized);
    }
    // `real`: where the path resolves; or, for a path that does not exist (`missing`), where its
    // nearest existing folder does.
    auto outside = [&](const std::string& real, bool missing) {
        std::string message;
        if (missing)
            message = "Refused: " + path + " is outside the allowed roots (" + roots_text() +
                      "): it does not exist, and its nearest existing folder, " + real + ", is outside them.";
        else if (real == path)
            message = "Refused: " + path + " is outside the allowed roots (" + roots_text() + ").";
        else
            message = "Refused: " + path + " resolves to " + real + ", which is outside the allowed roots (" +
                      roots_text() + ").";
        if (const std::string inside = existing_tail_inside(roots_.front(), path); !inside.empty())
            message += " " + join_path(roots_.front(), inside) + " exists: if that is the file meant, pass " + inside + ".";
        else
            message += " Use a path inside one of them, e.g. a path relative to " + roots_.front() + ".";
        return refuse(std::move(message), ErrorReason::outside_root);
    };

    int err = 0;
    if (auto real = platform::real_path(absolute, &err)) {
        if (!inside_roots(*real)) return outside(*real, false);
        return ResolvedPath{*real, display_path(*real), true};
    }
    if (err != ENOENT) {
        if (err == ENOTDIR) return refuse("Cannot resolve " + path + ": a component of the path is a file, not a directory.");
        if (err == ELOOP) return refuse("Cannot resolve " + path + ": too many levels of symbolic links.");
        return refuse("Cannot resolve " + path + ": " + platform::error_text(err) + ".", ErrorReason::io_error);
    }

    // Missing: walk up to the nearest existing ancestor, which must resolve inside a root. The
    // missing tail may not contain `..` (it could not be checked), nor be a dangling symlink.
    std::vector<std::string> tail;
    std::string cursor = absolute;
    for (int guard = 0; guard < 4096; ++guard) {
        std::string name(name_of(cursor));
        if (name == "..")
            return refuse("Refused: " + path + " uses `..` in a part of the path that does not exist yet. Pass the path without `..`.");
        if (!name.empty() && name != ".") tail.push_back(name);
        cursor = parent_of(cursor);
        int perr = 0;
        if (auto real = platform::real_path(cursor, &perr)) {
            if (!inside_roots(*real)) return outside(*real, !tail.empty());
            if (platform::stat_path(*real).kind != platform::FileKind::directory)
                return refuse("Cannot create " + path + ": " + *real + " is not a directory.");
            std::string result = *real;
            for (auto it = tail.rbegin(); it != tail.rend(); ++it) result = join_path(result, *it);
            if (platform::is_symlink(absolute)) {
                return refuse("Refused: " + path + " is a symbolic link whose target does not exist; a write through it could land outside the roots.",
                              ErrorReason::outside_root);
            }
            return ResolvedPath{result, display_path(result), false};
        }
        if (perr != ENOENT) return refuse("Cannot resolve " + path + ": " + platform::error_text(perr) + ".", ErrorReason::io_error);
        if (cursor == platform::filesystem_root(cursor)) break;
    }
    return refuse("Cannot resolve " + path + ".");
}

}  // namespace os
