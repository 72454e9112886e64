// Roots held by descriptor for as long as a workspace uses them, and released when none does: so a
// client that changes its roots again and again never pushes a root past the bound of held
// folders into name-based opens (issue 39, item 2), and a root whose path no longer names the
// folder held for it (renamed away, replaced by another folder or a symlink) is told apart per
// call (item 3). POSIX in confinement_posix.cpp, Windows in confinement_windows.cpp.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "base/result.hpp"

namespace os {

// At most this many folders are held at once (each is an open descriptor). A workspace holds at
// most Workspace::max_client_roots client roots plus the server's; older workspaces still in use
// by calls in flight add theirs until those calls end.
constexpr std::size_t max_held_roots = 256;

// A held root: its descriptor stays open, and every operation of this layer on a path
// under it starts from it, while any copy of this lives.
using RootHold = std::shared_ptr<const void>;

// Holds the directory `real_dir` (an absolute real path). Holding a path already held gives a
// copy of that hold when the path still names the same folder; when it names another folder now
// (the old one moved away), the new folder is held and later lookups of the path find it. Fails
// with why (for a message: "this server already holds 256 folders ...") when the bound is reached
// or the folder cannot be opened; nothing under it is then touched by name.
base::Result<RootHold, std::string> hold_root(const std::string& real_dir);

// Whether the path `real_root`, held by hold_root, still names the folder held for it: one lstat
// against the held descriptor's device and inode. `moved`: it was renamed away, removed, or
// replaced (by another folder or a symlink), and operations under it would reach the held folder
// at its new place while their paths name the old one.
enum class RootState { held, moved, not_held };
RootState root_state(const std::string& real_root);

// How many folders are held now (for tests and the log).
std::size_t held_root_count();

// Holds a descriptor of the directory `real_dir` (a root) for the life of the process. From then
// on every operation of this layer on a path under it (reads, stats, writes, folders, removals)
// reaches the path from that descriptor down and follows no symlink on the way: the paths given
// here are real paths, checked against the roots, so a symlink met on the way means the tree
// changed after the check, and the operation fails rather than follow it. A symlink inside a root
// keeps working: it is resolved (and checked) before the path reaches this layer. Windows: not
// yet (paths are opened by name there).
void hold_directory(const std::string& real_dir);

}  // namespace os
