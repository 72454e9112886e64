// The boundary of what may be touched: the roots (from --root, or the working directory; then
// narrowed, or supplied, by the client's roots), and the resolution of every path a tool receives
// into a real path inside them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error_reason.hpp"
#include "base/result.hpp"

namespace os {

struct ResolvedPath {
    std::string real;       // absolute, symlinks resolved (for a new file: resolved parent + name)
    std::string display;    // what messages show: relative to its root when inside the first root
    bool exists = false;
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

    // Resolves `path` (absolute, or relative to the first root). For a path that does not exist,
    // its nearest existing ancestor must resolve inside a root and the rest may hold no `..`.
    // Fails with a PathError a model can act on.
    base::Result<ResolvedPath, PathError> resolve(const std::string& path) const;

    // The path as shown to the model and in diff headers: relative to the first root that holds
    // it, absolute otherwise.
    std::string display_path(const std::string& real) const;

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
    std::vector<std::string> roots_;
    std::vector<std::string> problems_;
    std::string origin_;
};

struct Workspace::WithClientRoots {
    Workspace workspace;
    std::string note;  // for the log and the next result: the client's roots were set aside ("" when not)
};

}  // namespace os
