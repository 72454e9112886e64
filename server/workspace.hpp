// The boundary of what may be touched: the roots (from --root, possibly narrowed by the client
// later), and the resolution of every path a tool receives into a real path inside them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace server {

struct ResolvedPath {
    std::string real;       // absolute, symlinks resolved (for a new file: resolved parent + name)
    std::string display;    // what messages show: relative to its root when inside the first root
    bool exists = false;
};

struct PathError {
    std::string message;  // written for a model: what, why, and what would work
};

class Workspace {
public:
    // Roots are resolved at construction; unusable ones are reported in `problems`.
    explicit Workspace(const std::vector<std::string>& roots);

    const std::vector<std::string>& roots() const { return roots_; }
    const std::vector<std::string>& problems() const { return problems_; }

    // Resolves `path` (absolute, or relative to the first root). For a path that does not exist,
    // its nearest existing ancestor must resolve inside a root and the rest may hold no `..`.
    bool resolve(const std::string& path, ResolvedPath& out, PathError& error) const;

    // The path as shown to the model and in diff headers: relative to the first root that holds
    // it, absolute otherwise.
    std::string display_path(const std::string& real) const;

    bool inside_roots(const std::string& real) const;

    // The roots narrowed by a client's roots (paths or file:// URIs): the parts both allow. Client
    // roots never widen what --root allows.
    Workspace narrowed(const std::vector<std::string>& client_roots) const;

private:
    std::vector<std::string> roots_;
    std::vector<std::string> problems_;
};

}  // namespace server
