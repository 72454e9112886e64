// The directory walk shared by list, find and grep (see directory_walk.hpp): a stack of folders,
// one per depth level, each holding only its own sorted entries and the ignore files in force.
#include "os/directory_walk.hpp"

#include <algorithm>
#include <cerrno>
#include <memory>
#include <unordered_set>

#include "os/paths.hpp"
#include "os/error_text.hpp"
#include "os/system_paths.hpp"

namespace os {

namespace {

std::string join(std::string_view base, std::string_view name) {
    std::string out;
    out.reserve(base.size() + name.size() + 1);
    out.append(base);
    if (!out.empty() && out.back() != '/') out.push_back('/');
    out.append(name);
    return out;
}

struct IdentityHash {
    std::size_t operator()(const os::FileIdentity& id) const {
        return std::hash<std::uint64_t>()(id.inode * 0x9E3779B97F4A7C15ull ^ id.device);
    }
};

std::string why_unreadable(int err) {
    if (err == ELOOP || err == ENOTDIR || err == EXDEV)
        return "it changed while the walk reached it (replaced by a symlink or a file)";
    return os::error_text(err);
}

struct Level {
    std::string path;  // relative to the start ("" for the start)
    std::string real;  // the folder's real path
    const std::string* root = nullptr;
    std::string relative;   // `real` relative to `root`
    std::size_t depth = 1;  // the depth of its entries
    std::vector<std::shared_ptr<const IgnoreFile>> held;
    std::vector<const IgnoreFile*> files;  // the ignore files in force, from the root down
    os::DirectoryListing listing;
    std::size_t next = 0;
};

class Walk {
public:
    Walk(const WalkOptions& options, WalkVisitor& visitor) : options_(options), visitor_(visitor) {}

    WalkSummary run() {
        Level start;
        start.real = options_.start;
        start.root = options_.workspace ? options_.workspace->root_of(start.real) : nullptr;
        if (!start.root) {
            ++summary_.unreadable;
            visitor_.unreadable_folder("", "it is not inside the roots");
            return summary_;
        }
        start.relative = relative_to_root(*start.root, start.real);
        if (!open(start, nullptr)) return summary_;
        stack_.push_back(std::move(start));
        while (!stack_.empty()) {
            Level& level = stack_.back();
            if (level.next >= level.listing.entries.size()) {
                summary_.unread += level.listing.unread;
                if (level.listing.unread && summary_.crowded++ < max_capped_named)
                    summary_.crowded_paths.push_back(level.path);
                visitor_.leave_folder(level.path, level.depth - 1, level.listing.unread);
                stack_.pop_back();
                continue;
            }
            if (options_.cancelled && options_.cancelled->load(std::memory_order_relaxed)) {
                summary_.cancelled = true;
                break;
            }
            if (!step(level, level.listing.entries[level.next++])) break;
        }
        return summary_;
    }

private:
    // Reads the folder of `level` and sets up its ignore files (`parent`: the level it is a plain
    // child of; nullptr for the start and a followed link, whose folders above are read afresh).
    bool open(Level& level, const Level* parent) {
        auto listing = os::read_directory(level.real, options_.max_entries_per_folder, options_.stat_files);
        if (!listing) {
            ++summary_.unreadable;
            visitor_.unreadable_folder(level.path, why_unreadable(listing.error()));
            return false;
        }
        level.listing = std::move(*listing);
        auto& entries = level.listing.entries;
        std::sort(entries.begin(), entries.end(),
                  [](const os::DirectoryEntry& a, const os::DirectoryEntry& b) { return a.name < b.name; });
        if (options_.ignore && options_.ignore->has_rules()) {
            if (parent) {
                level.held = parent->held;
            } else if (!level.relative.empty()) {
                // The folders from the root down to this one's parent.
                const auto any = [](std::string_view) { return true; };
                std::size_t end = 0;
                for (std::string directory;;) {
                    for (auto& file : options_.ignore->folder_files(*level.root, directory, any))
                        level.held.push_back(std::move(file));
                    end = level.relative.find('/', directory.empty() ? 0 : end + 1);
                    if (end == std::string::npos) break;
                    directory = level.relative.substr(0, end);
                }
            }
            const auto present = [&entries](std::string_view name) {
                for (const auto& entry : entries)
                    if (IgnoreFiles::same_name(entry.name, name)) return true;
                return false;
            };
            for (auto& file : options_.ignore->folder_files(*level.root, level.relative, present))
                level.held.push_back(std::move(file));
            level.files.reserve(level.held.size());
            for (const auto& file : level.held) level.files.push_back(file.get());
        }
        return true;
    }

    bool inside_stack(const os::FileIdentity& id) const {
        for (const auto& level : stack_)
            if (level.listing.identity == id) return true;
        return false;
    }

    // One entry; false to end the walk.
    bool step(Level& level, const os::DirectoryEntry& e) {
        const bool git_folder =
            !e.symlink && e.kind == os::FileKind::directory && IgnoreFiles::same_name(e.name, ".git");
        if (!options_.include_hidden && !e.name.empty() && e.name[0] == '.' && !git_folder) {  // .git: counted as such
            ++summary_.hidden;
            return true;
        }
        const std::string path = join(level.path, e.name);
        const std::string real = join(level.real, e.name);
        const std::string relative = join(level.relative, e.name);
        WalkEntry w;
        w.path = path;
        w.name = e.name;
        w.depth = level.depth;
        w.real = real;
        std::string target;
        const std::string* target_root = nullptr;
        os::FileIdentity target_identity;
        if (e.symlink) {
            int err = 0;
            auto resolved = os::real_path(real, &err);
            if (!resolved) {
                w.link = LinkKind::broken;
            } else if (!(target_root = options_.workspace->root_of(*resolved))) {
                w.link = LinkKind::outside;
            } else {
                target = std::move(*resolved);
                w.real = target;
                const os::FileStat st = os::stat_path(target);
                target_identity = st.identity;
                w.link = LinkKind::inside;
                if (st.kind == os::FileKind::directory) {
                    w.kind = EntryKind::directory;
                    if (inside_stack(st.identity) || followed_.count(st.identity)) {
                        w.link = LinkKind::loop;
                    } else if (followed_.size() >= max_followed_links) {
                        w.link = LinkKind::loop;  // not entered, and counted as a cap reached
                        ++summary_.links_not_followed;
                    }
                } else if (st.kind == os::FileKind::regular) {
                    w.kind = EntryKind::file;
                    w.size = st.size;
                    w.mtime_ns = st.mtime_ns;
                    w.stat_known = true;
                } else if (st.kind == os::FileKind::missing) {
                    w.link = LinkKind::broken;
                }
            }
        } else {
            w.kind = e.kind == os::FileKind::regular     ? EntryKind::file
                     : e.kind == os::FileKind::directory ? EntryKind::directory
                                                         : EntryKind::other;
            w.stat_known = e.stat_known;
            w.size = e.size;
            w.mtime_ns = e.mtime_ns;
        }
        const bool is_directory = w.kind == EntryKind::directory;
        std::optional<IgnoreRefusal> refusal;
        if (is_directory && IgnoreFiles::same_name(e.name, ".git")) {
            refusal.emplace();
            refusal->kind = IgnoreRefusal::Kind::git_directory;
            refusal->ignored_path = relative;
        } else if (!level.files.empty()) {
            refusal = IgnoreFiles::listing_verdict(level.files, relative, is_directory);
        }
        if (!refusal && w.link == LinkKind::inside && options_.ignore)  // where it leads counts too
            refusal = options_.ignore->refuse_listing(*target_root, target, is_directory);
        if (refusal) w.ignored = &*refusal;
        ++summary_.entries;
        const WalkStep next = visitor_.entry(w);
        if (next == WalkStep::stop) {
            summary_.stopped = true;
            return false;
        }
        if (!is_directory || refusal || next != WalkStep::go_on) return true;
        if (w.link != LinkKind::none && w.link != LinkKind::inside) return true;
        if (level.depth >= options_.max_depth) {
            if (summary_.too_deep++ < max_capped_named) summary_.too_deep_paths.push_back(path);
            return true;
        }
        Level child;
        child.path = path;
        child.depth = level.depth + 1;
        const bool via_link = w.link == LinkKind::inside;
        if (via_link) {
            child.real = target;
            child.root = target_root;
            child.relative = relative_to_root(*target_root, target);
            followed_.insert(target_identity);
        } else {
            child.real = real;
            child.root = level.root;
            child.relative = relative;
        }
        if (open(child, via_link ? nullptr : &level)) stack_.push_back(std::move(child));
        return true;
    }

    const WalkOptions& options_;
    WalkVisitor& visitor_;
    WalkSummary summary_;
    std::vector<Level> stack_;
    std::unordered_set<os::FileIdentity, IdentityHash> followed_;
};

}  // namespace

WalkSummary walk_directory(const WalkOptions& options, WalkVisitor& visitor) {
    Walk walk(options, visitor);
    return walk.run();
}

}  // namespace os
