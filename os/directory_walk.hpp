// The walk of a folder tree that `list`, `find` and `grep` share: streaming (one folder's entries
// held per depth level, never every path), sorted, confined to the roots, ignore-aware and cancellable.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "os/ignore_files.hpp"
#include "os/file_status.hpp"
#include "os/workspace.hpp"

namespace os {

// One entry of a folder as the system reports it (a symlink is not followed here).
struct DirectoryEntry {
    std::string name;
    FileKind kind = FileKind::other;  // of the entry itself; a symlink: FileKind::other with `symlink`
    bool symlink = false;             // POSIX symlink; Windows reparse point (symlink, junction)
    bool stat_known = false;          // size and mtime_ns filled (regular files, when asked)
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
};

struct DirectoryListing {
    FileIdentity identity;                // of the folder itself
    std::vector<DirectoryEntry> entries;  // in the system's order, at most max_entries
    std::uint64_t unread = 0;             // entries past max_entries: counted, not kept
};

// Reads the folder `real_dir` (a real path). Under a held root it is reached from the root's
// descriptor with no symlink followed (POSIX; see confinement_posix.hpp). `with_stat`: the size
// and modification time of regular files too (one lstat each). Fails with an errno-style code
// (os::error_text words it).
base::Result<DirectoryListing, int> read_directory(const std::string& real_dir, std::size_t max_entries,
                                                   bool with_stat);

}  // namespace os

namespace os {

enum class EntryKind { file, directory, other };  // other: FIFO, socket, device, unresolvable link
enum class LinkKind {
    none,     // not a symlink
    inside,   // a symlink to a file or folder inside the roots: followed (kind, size are the target's)
    outside,  // to a place outside the roots: never followed
    broken,   // its target does not exist (or cannot be resolved)
    loop,     // to a folder the walk is already inside, or entered before through another link: not entered
};

struct WalkEntry {
    std::string_view path;  // relative to the walk's start, '/'-separated, through link names
    std::string_view name;
    std::size_t depth = 1;  // 1: directly in the start folder
    EntryKind kind = EntryKind::other;
    LinkKind link = LinkKind::none;
    bool stat_known = false;  // size and mtime_ns filled (files, with WalkOptions::stat_files)
    std::uint64_t size = 0;
    std::int64_t mtime_ns = 0;
    std::string_view real;  // the real path (for a followed link: its target's)
    // Non-null: left out by a rule of an ignore file, or a `.git` folder; a folder is not entered.
    const IgnoreRefusal* ignored = nullptr;
};

enum class WalkStep {
    go_on,  // a folder: enter it (within max_depth)
    skip,   // a folder: do not enter it (for a file the same as go_on)
    stop,   // end the walk now
};

class WalkVisitor {
public:
    virtual ~WalkVisitor() = default;
    virtual WalkStep entry(const WalkEntry& entry) = 0;
    // After the last entry of a folder entered (`path` "" for the start); `unread`: entries past
    // WalkOptions::max_entries_per_folder, counted and not shown.
    virtual void leave_folder(std::string_view path, std::size_t depth, std::uint64_t unread) {
        (void)path, (void)depth, (void)unread;
    }
    // A folder that could not be read (its entry was visited; nothing below it is).
    virtual void unreadable_folder(std::string_view path, std::string_view why) { (void)path, (void)why; }
};

struct WalkOptions {
    std::string start;  // a real path of a folder inside `workspace`'s roots
    const Workspace* workspace = nullptr;
    IgnoreFiles* ignore = nullptr;  // nullptr: no rules, `.git` still left out
    std::size_t max_depth = 64;     // entries at depth > max_depth are not read
    std::size_t max_entries_per_folder = 100000;
    bool stat_files = true;      // size and mtime of files (an lstat each)
    bool include_hidden = true;  // names starting with '.' (a `.git` folder is visited, flagged ignored, either way)
    const std::atomic<bool>* cancelled = nullptr;  // checked before each entry
};

// Paths of folders where a cap was reached, named in WalkSummary: at most this many of each.
constexpr std::size_t max_capped_named = 3;

struct WalkSummary {
    bool cancelled = false;        // the flag was seen set
    bool stopped = false;          // the visitor said stop
    std::uint64_t entries = 0;     // entries given to the visitor
    std::uint64_t hidden = 0;      // dot-names left out (include_hidden false)
    std::uint64_t unread = 0;      // past max_entries_per_folder, all folders together
    std::uint64_t unreadable = 0;  // folders that could not be read
    // Caps reached (each means the walk did not see everything below the start):
    std::uint64_t too_deep = 0;               // folders at max_depth the visitor wanted entered: not entered
    std::uint64_t crowded = 0;                // folders with entries past max_entries_per_folder
    std::uint64_t links_not_followed = 0;     // links to folders not entered: max_followed_links were followed
    std::vector<std::string> too_deep_paths;  // the first max_capped_named of them (relative to the start)
    std::vector<std::string> crowded_paths;   // likewise ("" for the start itself)
    // True when a cap was reached (cancellation and a visitor's stop are the caller's to tell).
    bool capped() const { return too_deep || crowded || links_not_followed; }
};

// The number of links to folders a walk follows, at most (their targets are remembered).
constexpr std::size_t max_followed_links = 65536;

// The walk: depth first, each folder's entries sorted by name (bytewise), each folder's entry
// visited before what is in it. Symlinks are followed only to places inside the roots, and never
// into a folder the walk is already inside (nor twice into one link target).
WalkSummary walk_directory(const WalkOptions& options, WalkVisitor& visitor);

}  // namespace os
