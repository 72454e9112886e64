// The boundary of what may be touched: the roots (from --root, or the working directory; then
// narrowed, or supplied, by the client's roots), and the resolution of every path a tool receives
// into a real path inside them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "os/confinement.hpp"
#include "base/error_reason.hpp"
#include "base/result.hpp"

namespace os {

struct ResolvedPath {
    std::string real;     // absolute, symlinks resolved (for a new file: resolved parent + name)
    std::string display;  // what messages show (Workspace::display_path): names this one file when passed back
    bool exists = false;
    // The path as it was spelled, made absolute the one way every spelling is (`~/`, a root's
    // name, relative to a root), with no symlink resolved: what a check of the link itself
    // (move and delete refuse symlinks) looks at.
    std::string spelled;
};

struct PathError {
    std::string message;  // written for a model: what, why, and what would work
    base::ErrorReason reason = base::ErrorReason::invalid_arguments;
};

class Workspace {
public:
    // Roots are resolved at construction; unusable ones are reported in `problems` ("/x does not
    // exist"). `origin` says where the roots come from, for messages that name them ("" for the
    // server's --root as given).
    explicit Workspace(const std::vector<std::string>& roots, std::string origin = "");

    const std::vector<std::string>& roots() const { return roots_; }
    const std::vector<std::string>& problems() const { return problems_; }
    const std::string& origin() const { return origin_; }

    // Resolves `path`: absolute; `~/...`; or relative. With one root, relative to it. With
    // several, a path that starts with a root's label (see display_path) is in that root; any
    // other relative path is in the one root where it exists (refused, naming them, when it
    // exists in several), or, existing nowhere, in the first root. For a path that does not
    // exist, its nearest existing ancestor must resolve inside a root and the rest may hold no
    // `..`. A root whose path no longer names the folder held for it (renamed away, replaced) is
    // refused as moved. Refusals of paths outside the roots never say where a link leads or
    // whether an outside path exists. A whole git-quoted path (as listings show an odd name) is
    // the name it stands for, unless a file has the quoted name itself. Fails with a PathError a
    // model can act on.
    base::Result<ResolvedPath, PathError> resolve(const std::string& path) const;

    // The path as shown to the model, in listings and in diff headers; passed back to resolve it
    // names this file and no other. With one root: relative to it ("." for the root itself).
    // With several: the root's label, then the path below it ("api/src/x.py", "api" for the root
    // itself). Outside the roots: absolute.
    std::string display_path(const std::string& real) const;

    // Each root's label, as display_path starts paths with it when there are several roots: the
    // root folder's base name, made unique with "~2", "~3" when two roots share one.
    const std::vector<std::string>& labels() const { return labels_; }

    bool inside_roots(const std::string& real) const;
    // The first root that holds `real`; nullptr when none does.
    const std::string* root_of(const std::string& real) const;

    // The workspace of a connection whose client declared roots (`client_roots`: file:// URIs or
    // absolute paths; the first max_client_roots are examined). With `server_roots_given` (--root
    // was on the command line) the client's roots narrow these roots to the parts both allow and
    // never widen them; when they share nothing these roots stay, and `note` says so. Without it
    // (these roots are only the working directory), the client's usable roots are the roots. No
    // client roots at all: these roots, no note.
    struct WithClientRoots;
    static constexpr std::size_t max_client_roots = 64;
    WithClientRoots with_client_roots(const std::vector<std::string>& client_roots, bool server_roots_given) const;

    // "a, b, c and 2 more": a list as messages show it (at most 8 items).
    static std::string list_text(const std::vector<std::string>& items);

private:
    // `path` made absolute (see ResolvedPath::spelled); fails when a relative path exists in
    // several roots.
    base::Result<std::string, PathError> absolute_of(const std::string& path) const;
    base::Result<ResolvedPath, PathError> resolve_spelled(const std::string& path) const;  // resolve, unquoted
    // The refusal for a root that moved, when `absolute` is under one; nullopt otherwise.
    std::optional<PathError> moved_root(const std::string& absolute) const;
    // Whether the dangling symlink `link` leads to a place whose nearest existing folder is
    // outside the roots (then refused as outside, like any path there).
    bool dangling_link_leads_outside(std::string link) const;

    std::vector<std::string> roots_;
    std::vector<std::string> labels_;  // one per root
    std::vector<os::RootHold> holds_;  // one per root: held by descriptor while this lives
    std::vector<std::string> problems_;
    std::string origin_;
};

struct Workspace::WithClientRoots {
    Workspace workspace;
    std::string note;  // for the log and the next result: the client's roots were set aside ("" when not)
};

}  // namespace os
