// Workspace::resolve: every path a tool receives (absolute, `~/`, relative to a root, prefixed by a
// root's label, git-quoted) made into a real path inside the roots, or refused with a message a
// model can act on.
#include "os/workspace.hpp"

#include <cctype>
#include <cerrno>
#include <filesystem>
#include <utility>

#include "os/paths.hpp"
#include "os/error_text.hpp"
#include "os/file_status.hpp"
#include "os/system_paths.hpp"
#include "text/paths/path_quoting.hpp"

namespace os {

namespace {

// For an absolute path outside the roots (say /repo/src/x.py, written for another machine's
// checkout): the longest of its tails ("src/x.py", then "x.py") that exists under `root`; "" when
// none does. Bounded: at most 64 tails are tried.
std::string existing_tail_inside(const std::string& root, const std::string& path) {
    if (!os::is_absolute(path)) return "";
    const std::string normalized = os::normalize_separators(path);
    std::string tail = normalized.substr(os::filesystem_root(normalized).size());
    for (int tries = 0; tries < 64 && !tail.empty(); ++tries) {
        const auto slash = tail.find('/');
        if (slash == std::string::npos) break;  // the bare file name alone is too weak a guess
        tail = tail.substr(slash + 1);
        if (tail.empty() || tail.find("..") != std::string::npos) break;
        if (os::real_path(join_path(root, tail))) return tail;
    }
    return "";
}

// `relative` ('/'-separated) without empty and "." components ("" for the root itself).
std::string without_dots(std::string_view relative) {
    std::string out;
    while (!relative.empty()) {
        const auto slash = relative.find('/');
        const std::string_view name = relative.substr(0, slash);
        relative = slash == std::string_view::npos ? std::string_view() : relative.substr(slash + 1);
        if (name.empty() || name == ".") continue;
        if (!out.empty()) out += '/';
        out.append(name);
    }
    return out;
}

std::filesystem::path utf8_fs_path(const std::string& utf8) {
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

// Whether something (a file, a folder, a link, dangling or not) has this name.
bool name_exists(const std::string& absolute) {
    return os::real_path(absolute).has_value() || os::is_symlink(absolute);
}

}  // namespace

base::Result<std::string, PathError> Workspace::absolute_of(const std::string& path) const {
    using base::ErrorReason;
    // `~/x` (and `~`): the user's home, then checked against the roots like any absolute path.
    if (path == "~" || path.starts_with("~/")) {
        const auto home = os::home_directory();
        if (!home)
            return base::fail(
                PathError{"Cannot resolve " + path +
                          ": the user's home directory is unknown ($HOME is not set). Pass an absolute path."});
        return path == "~" ? *home : join_path(*home, path.substr(2));
    }
    const std::string normalized = os::normalize_separators(path);
    if (os::is_absolute(path)) return normalized;
    if (normalized[0] == '/')  // Windows: rooted on the current drive, here the first root's
        return os::filesystem_root(roots_.front()) + normalized.substr(1);
    if (roots_.size() == 1) return join_path(roots_.front(), normalized);

    // Several roots: shown paths start with a root's label, and a bare path must name one file.
    const std::string plain = without_dots(normalized);
    if (plain.empty()) return roots_.front();  // "." is the first root
    const auto slash = plain.find('/');
    const std::string first = plain.substr(0, slash);
    const std::string below = slash == std::string::npos ? "" : plain.substr(slash + 1);
    // The roots where the bare path names something, each real file once.
    std::vector<std::size_t> holders;
    std::vector<std::string> reals;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        const std::string candidate = join_path(roots_[i], normalized);
        if (!name_exists(candidate)) continue;
        const std::string real = os::real_path(candidate).value_or(candidate);
        bool same = false;
        for (const auto& known : reals) same = same || os::same_path(known, real);
        if (same) continue;
        holders.push_back(i);
        reals.push_back(real);
    }
    const auto shown_in = [&](std::size_t i) { return labels_[i] + "/" + plain; };
    for (std::size_t k = 0; k < roots_.size(); ++k) {
        if (!os::same_path(first, labels_[k])) continue;
        const std::string labelled = join_path(roots_[k], below);
        if (holders.empty() || name_exists(labelled)) return labelled;
        // "api/x" where the root `api` holds no x, but a folder api/ in another root holds one.
        std::vector<std::string> others;
        for (const std::size_t i : holders) others.push_back(shown_in(i));
        return base::fail(PathError{"Refused: " + path + " is ambiguous: it starts with " + labels_[k] +
                                    ", the name of the root " + roots_[k] + ", which holds no " +
                                    (below.empty() ? std::string(".") : below) + "; and " + list_text(others) +
                                    " exists. Pass " + others.front() + " for that file, or " + labelled +
                                    " (absolute) for a new file in " + roots_[k] + "."});
    }
    if (holders.size() > 1) {
        std::vector<std::string> shown;
        for (const std::size_t i : holders) shown.push_back(shown_in(i));
        return base::fail(PathError{"Refused: " + path + " exists in " + std::to_string(holders.size()) +
                                    " roots, so it does not say which file is meant: " + list_text(shown) +
                                    ". Pass one of these (a path starting with its root's name)."});
    }
    return join_path(roots_[holders.empty() ? 0 : holders.front()], normalized);
}

bool Workspace::dangling_link_leads_outside(std::string link) const {
    // Through the chain of links (at most 40, as the kernel follows), then to the nearest folder
    // that exists.
    for (int hop = 0; hop < 40 && os::is_symlink(link); ++hop) {
        std::error_code ec;
        const auto target = std::filesystem::read_symlink(utf8_fs_path(link), ec);
        if (ec) return true;
        const auto bytes = target.generic_u8string();
        const std::string text = os::normalize_separators(std::string(bytes.begin(), bytes.end()));
        if (text.empty()) return true;
        link = os::is_absolute(text) ? text : join_path(parent_of(link), text);
    }
    for (int guard = 0; guard < 4096; ++guard) {
        if (auto real = os::real_path(link)) return !inside_roots(*real);
        std::string up = parent_of(link);
        if (up == link) break;
        link = std::move(up);
    }
    return true;
}

std::optional<PathError> Workspace::moved_root(const std::string& absolute) const {
    for (const auto& root : roots_) {
        if (!is_within(absolute, root) || os::root_state(root) != os::RootState::moved) continue;
        return PathError{"Refused: the root " + root +
                             " was moved or replaced: that path no longer names the folder this server holds for it "
                             "(it was renamed away or removed, and something else has its name now), so nothing was "
                             "read or written there. Ask the user to move the folder back, or to restart the server "
                             "(or to update the client's roots) so that the folder now at " +
                             root + " is taken.",
                         base::ErrorReason::outside_root};
    }
    return std::nullopt;
}

base::Result<ResolvedPath, PathError> Workspace::resolve(const std::string& path) const {
    // A path as listings and diffs show an odd name ("odd\nname.txt", quotes and escapes included),
    // passed back as shown: the name it stands for, unless a file really has the quoted name.
    if (auto name = text::unquoted_path(path)) {
        auto literal = absolute_of(path);
        if (!literal || os::stat_path(*literal).kind == os::FileKind::missing) return resolve_spelled(*name);
    }
    return resolve_spelled(path);
}

base::Result<ResolvedPath, PathError> Workspace::resolve_spelled(const std::string& path) const {
    using base::ErrorReason;
    auto refuse = [](std::string message, ErrorReason reason = ErrorReason::invalid_arguments) {
        return base::fail(PathError{std::move(message), reason});
    };
    auto roots_text = [&] { return list_text(roots_) + (origin_.empty() ? "" : ": " + origin_); };
    if (path.empty())
        return refuse("file_path is empty: pass a path relative to " + list_text(roots_) +
                      " or an absolute path inside it.");
    if (path.find('\0') != std::string::npos) return refuse("file_path contains a NUL byte and was refused.");
    if (roots_.empty()) {
        return refuse(problems_.empty()
                          ? "no usable root is configured; start the server with --root DIR."
                          : "no usable root: " + problems_.front() + ". Nothing inside them can be touched.",
                      ErrorReason::no_root);
    }
    auto spelled = absolute_of(path);
    if (!spelled) return base::fail(std::move(spelled).error());
    const std::string absolute = std::move(spelled).value();
    if (auto moved = moved_root(absolute)) return base::fail(std::move(*moved));

    // Outside the roots: said the same way whether the path exists, is a link or leads anywhere,
    // so that no refusal tells what lies outside.
    auto outside = [&] {
        std::string message = "Refused: " + path + " is outside the allowed roots (" + roots_text() + ").";
        std::string inside;
        for (const auto& root : roots_) {
            if (const std::string tail = existing_tail_inside(root, path); !tail.empty()) {
                inside = display_path(join_path(root, tail));
                message += " " + join_path(root, tail) + " exists: if that is the file meant, pass " + inside + ".";
                break;
            }
        }
        if (inside.empty())
            message += " Use a path inside one of them, e.g. a path relative to " + roots_.front() + ".";
        return refuse(std::move(message), ErrorReason::outside_root);
    };
    auto found = [&](std::string real, bool exists) -> base::Result<ResolvedPath, PathError> {
        if (auto moved = moved_root(real)) return base::fail(std::move(*moved));
        std::string shown = display_path(real);
        return ResolvedPath{std::move(real), std::move(shown), exists, absolute};
    };

    int err = 0;
    if (auto real = os::real_path(absolute, &err)) {
        if (!inside_roots(*real)) return outside();
        return found(std::move(*real), true);
    }

    // Not resolvable: walk up to the nearest existing ancestor. Outside the roots: refused as
    // outside, whatever the reason. Inside: a missing path is a new file, whose missing tail may
    // not contain `..` (it could not be checked), nor be a dangling symlink.
    std::vector<std::string> tail;
    bool dotdot = false;
    std::string cursor = absolute;
    for (int guard = 0; guard < 4096; ++guard) {
        std::string name(name_of(cursor));
        if (name == "..") dotdot = true;
        if (!name.empty() && name != ".") tail.push_back(name);
        cursor = parent_of(cursor);
        auto real = os::real_path(cursor);
        if (!real) {
            if (cursor == os::filesystem_root(cursor)) break;
            continue;
        }
        if (!inside_roots(*real)) return outside();
        if (err == ENOTDIR)
            return refuse("Cannot resolve " + path + ": a component of the path is a file, not a directory.");
        if (err == ELOOP) return refuse("Cannot resolve " + path + ": too many levels of symbolic links.");
        if (err != ENOENT)
            return refuse("Cannot resolve " + path + ": " + os::error_text(err) + ".", ErrorReason::io_error);
        if (dotdot)
            return refuse("Refused: " + path +
                          " uses `..` in a part of the path that does not exist yet. Pass the path without `..`.");
        if (os::stat_path(*real).kind != os::FileKind::directory)
            return refuse("Cannot create " + path + ": " + display_path(*real) + " is not a directory.");
        std::string result = *real;
        for (auto it = tail.rbegin(); it != tail.rend(); ++it) result = join_path(result, *it);
        if (os::is_symlink(absolute)) {
            if (dangling_link_leads_outside(absolute)) return outside();
            return refuse("Refused: " + path +
                              " is a symbolic link whose target does not exist; a write through it "
                              "would create a file under another name. Pass the path of the link's target instead.",
                          ErrorReason::outside_root);
        }
        return found(std::move(result), false);
    }
    return outside();
}

}  // namespace os
