// The roots: resolved at construction, labelled, narrowed or supplied by the client's roots, and
// the paths shown to the model. Resolving a path into them is os/workspace_resolution.cpp.
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

// The real path of `path` as a root; fails with why it cannot be one ("/x does not exist").
base::Result<std::string, std::string> root_real_path(const std::string& path) {
    int err = 0;
    auto real = os::real_path(path, &err);
    if (!real) {
        if (err == ENOENT) return base::fail(path + " does not exist");
        return base::fail(path + " cannot be used: " + os::error_text(err));
    }
    if (os::stat_path(*real).kind != os::FileKind::directory) return base::fail(path + " is not a directory");
    return std::move(*real);
}

// Each root's label: its folder's base name; a name taken by an earlier root (or "~", which names
// the home) gets "~2", "~3", ... A file system's own root ("/", "C:/") is "fs".
std::vector<std::string> root_labels(const std::vector<std::string>& roots) {
    std::vector<std::string> labels;
    labels.reserve(roots.size());
    const auto taken = [&](const std::string& label) {
        if (label == "~") return true;
        for (const auto& known : labels)
            if (os::same_path(known, label)) return true;
        return false;
    };
    for (const auto& root : roots) {
        std::string base(name_of(root));
        if (base.empty()) base = "fs";
        std::string label = base;
        for (std::size_t n = 2; taken(label); ++n) label = base + "~" + std::to_string(n);
        labels.push_back(std::move(label));
    }
    return labels;
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
        for (const auto& known : roots_) duplicate = duplicate || os::same_path(known, *real);
        if (duplicate) continue;
        // Every later read and write beneath it starts from its descriptor, held while this
        // workspace (or a copy) lives; a root that cannot be held is not a root: nothing is ever
        // reached by name instead.
        auto held = os::hold_root(*real);
        if (!held) {
            problems_.push_back(std::move(held).error());
            continue;
        }
        holds_.push_back(std::move(held).value());
        roots_.push_back(std::move(real).value());
    }
    labels_ = root_labels(roots_);
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
        return os::is_absolute(uri) ? os::normalize_separators(uri) : "";
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
    if (!os::is_absolute(out) && out.size() > 1 && os::is_absolute(out.substr(1))) out = out.substr(1);
    return os::normalize_separators(std::move(out));
}

}  // namespace

Workspace::WithClientRoots Workspace::with_client_roots(const std::vector<std::string>& client_roots,
                                                        bool server_roots_given) const {
    if (client_roots.empty()) return {*this, ""};
    std::vector<std::string> sent;    // as the client named them (paths when file:// URIs)
    std::vector<std::string> usable;  // real paths of existing directories
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
        if (!real)
            problems.push_back(std::move(real).error());
        else
            usable.push_back(std::move(real).value());
    }
    std::string theirs = list_text(sent);
    if (client_roots.size() > max_client_roots)
        theirs += " (and " + std::to_string(client_roots.size() - max_client_roots) + " more not examined)";
    const std::string ours = list_text(roots_);

    if (!server_roots_given) {
        // Started without --root: the client's roots are the roots; the working directory is only
        // the fallback.
        if (!usable.empty()) {
            Workspace theirs_only(usable, "the client's roots; this server was started without --root");
            std::string note;
            if (!theirs_only.problems().empty())
                note = "Some of the client's roots cannot be used: " + list_text(theirs_only.problems()) + ".";
            return {std::move(theirs_only), std::move(note)};
        }
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
            if (is_within(client, root))
                allowed.push_back(client);  // the client narrows this root
            else if (is_within(root, client))
                allowed.push_back(root);  // the client's root is wider: ours stays
        }
    }
    if (!allowed.empty()) {
        Workspace overlap(allowed,
                          "where the client's roots (" + theirs + ") and this server's --root (" + ours + ") overlap");
        std::string note;
        if (!overlap.problems().empty())
            note = "Some of the client's roots cannot be used: " + list_text(overlap.problems()) + ".";
        return {std::move(overlap), std::move(note)};
    }
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
    const bool several = roots_.size() > 1;
    for (std::size_t i = 0; i < roots_.size(); ++i) {
        const std::string& root = roots_[i];
        if (os::same_path(real, root)) return several ? labels_[i] : ".";
        if (is_within(real, root)) {
            std::string below = real.substr(root.size() + (root.back() == '/' ? 0 : 1));
            return several ? labels_[i] + "/" + below : below;
        }
    }
    return real;
}

}  // namespace os
