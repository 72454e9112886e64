// The `list` tool: a folder's tree for a model, as an indented outline (each folder by its whole
// path, each file by name with size and line count), bounded per folder and in bytes, with what
// was left out counted and named.
#include <algorithm>

#include "tools/pipeline/listing.hpp"
#include "tools/pipeline/listing_messages.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/catalog.hpp"
#include "os/file_reads.hpp"

namespace tools {

struct ListArgs {
    std::string path;  // "" = the first root
    std::int64_t depth = 2;
    bool include_hidden = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ListArgs, path, depth, include_hidden)

namespace {

// Files up to this size get a line count (read whole), while the call has read less than
// max_counted_bytes for counting; larger ones show only their size.
constexpr std::uint64_t max_counted_file = 256 * 1024;
constexpr std::uint64_t max_counted_bytes = 16ull << 20;
// Past the output budget the walk goes on only to count; after this many more entries it stops.
constexpr std::uint64_t max_counted_after_budget = 1000000;

// Entries shown per folder, by the depth of its entries: the first levels get the most room,
// so a deep folder cannot take the whole budget from its siblings.
std::size_t shown_per_folder(std::size_t depth) { return depth <= 1 ? 200 : depth == 2 ? 60 : 25; }

class ListVisitor : public os::WalkVisitor {
public:
    ListVisitor(const CallContext& ctx, const ListingStart& start, std::size_t depth, std::size_t budget)
        : ctx_(ctx),
          start_(start),
          depth_(depth),
          budget_(budget),
          left_out_(!(ctx.ignore && ctx.ignore->settings().ignore_reads)) {
        folders_.push_back(Folder{true, 0, 0, 0, 0});
    }

    os::WalkStep entry(const os::WalkEntry& e) override {
        if (e.ignored) {
            left_out_.add(*e.ignored);
            return os::WalkStep::skip;
        }
        const std::size_t d = e.depth;
        Folder& parent = folders_[std::min(d, folders_.size()) - 1];
        const bool directory = e.kind == os::EntryKind::directory;
        const bool enters = directory && d < depth_ && (e.link == os::LinkKind::none || e.link == os::LinkKind::inside);
        bool visible = parent.visible && !over_budget_ && parent.shown < shown_per_folder(d);
        if (visible) {
            std::string line = describe(e);
            if (text_json_ + json_escaped_size(line) + 2 > budget_) {
                over_budget_ = true;
                visible = false;
            } else {
                text_json_ += json_escaped_size(line) + 2;
                text_ += line;
                text_ += '\n';
                ++parent.shown;
                ++shown_;
                if (directory && d >= depth_ && e.link != os::LinkKind::outside && e.link != os::LinkKind::broken &&
                    e.link != os::LinkKind::loop)
                    ++unopened_;
            }
        }
        if (!visible) {
            Folder& into = folders_[parent.rollup];
            (directory ? into.more_folders : into.more_files)++;
            (directory ? more_folders_ : more_files_)++;
            if (over_budget_ && ++counted_after_budget_ >= max_counted_after_budget) {
                counted_all_ = false;
                return os::WalkStep::stop;
            }
        }
        if (enters) folders_.push_back(Folder{visible, 0, 0, 0, visible ? folders_.size() : parent.rollup});
        return os::WalkStep::go_on;
    }

    void leave_folder(std::string_view, std::size_t depth, std::uint64_t unread) override {
        unread_ += unread;
        if (folders_.size() != depth + 1) return;  // not a folder this visitor entered (cannot happen)
        const Folder folder = folders_.back();
        if (depth > 0) folders_.pop_back();
        if (!folder.visible || over_budget_ || (folder.more_files == 0 && folder.more_folders == 0 && unread == 0))
            return;
        std::string line =
            std::string(2 * depth + 2, ' ') + "\xE2\x80\xA6 " + more_text(folder.more_files, folder.more_folders);
        if (unread) line += " (and " + base::with_commas(unread) + " entries past the first 100,000, not read)";
        if (text_json_ + json_escaped_size(line) + 2 > budget_) {
            over_budget_ = true;
            return;
        }
        text_json_ += json_escaped_size(line) + 2;
        text_ += line;
        text_ += '\n';
    }

    void unreadable_folder(std::string_view path, std::string_view why) override {
        if (!path.empty() && folders_.size() > 1) folders_.pop_back();
        if (unreadable_.size() < max_unreadable_named)
            unreadable_.push_back(listing_path(start_, path) + " (" + std::string(why) + ")");
        ++unreadable_count_;
    }

    ToolResult result(const os::WalkSummary& summary) {
        left_out_.add_hidden(summary.hidden);
        std::string header = start_.folder.display == "." ? "./" : shown_path(start_.folder.display) + "/";
        std::string out = header + "\n" + text_;
        if (shown_ == 0 && more_files_ == 0 && more_folders_ == 0) out += "  (empty)\n";
        std::string notes;
        const auto note = [&notes](const std::string& s) { notes += s + "\n"; };
        if (more_files_ || more_folders_) {
            note(list_not_shown_note(more_text(more_files_, more_folders_), !counted_all_, depth_,
                                     over_budget_ ? compact_size(budget_) : std::string()));
        }
        if (unopened_) note(list_unopened_note(depth_));
        if (linked_) note(list_hard_links_note(linked_));
        const std::string caps = walk_caps_text(summary, start_, depth_, false, "list");
        if (!caps.empty()) note(caps);
        if (const std::string left = left_out_.text(ctx_.workspace, *start_.root); !left.empty()) note(left);
        if (unreadable_count_) {
            std::string s = "Could not read " + base::with_commas(unreadable_count_) +
                            (unreadable_count_ == 1 ? " folder: " : " folders: ");
            for (std::size_t i = 0; i < unreadable_.size(); ++i) s += (i ? ", " : "") + unreadable_[i];
            note(s + ".");
        }

        ToolResult r;
        r.structured = {
            {"path", shown_path(start_.folder.display)},
            {"depth", depth_},
            {"shown", shown_},
            {"more_files", more_files_},
            {"more_folders", more_folders_},
            {"truncated", more_files_ + more_folders_ + summary.unread > 0},
            {"complete", counted_all_ && caps.empty()},
            {"left_out", left_out_.json(ctx_.workspace, *start_.root)},
        };
        if (unreadable_count_) r.structured["unreadable"] = unreadable_;
        r.text = fit_structured_text(r.structured, out, notes,
                                     "call list with path set to a folder above, or a lower depth.");
        return r;
    }

private:
    struct Folder {
        bool visible = true;
        std::size_t shown = 0;
        std::uint64_t more_files = 0;
        std::uint64_t more_folders = 0;
        std::size_t rollup = 0;  // where entries not shown are counted: this folder, or the nearest shown one above
    };

    static std::string more_text(std::uint64_t files, std::uint64_t folders) {
        std::string s = base::with_commas(files) + " more " + (files == 1 ? "file" : "files");
        if (folders) s += " and " + base::with_commas(folders) + " " + (folders == 1 ? "folder" : "folders");
        return s;
    }

    // One line of the outline (no newline).
    std::string describe(const os::WalkEntry& e) {
        const std::string path = listing_path(start_, e.path);
        std::string line(2 * (e.depth - 1) + 2, ' ');
        const auto target = [&] { return shown_path(ctx_.workspace.display_path(std::string(e.real))); };
        switch (e.link) {
            case os::LinkKind::outside:
                line += shown_path(e.name) + " -> (a symlink to outside the roots, not followed)";
                return line;
            case os::LinkKind::broken: line += shown_path(e.name) + " -> (a broken symlink)"; return line;
            case os::LinkKind::loop:
                line += path + "/ -> " + target() + "/ (a symlink back into a folder already shown; not entered)";
                return line;
            case os::LinkKind::inside:
            case os::LinkKind::none: break;
        }
        if (e.kind == os::EntryKind::directory) {
            line += path + "/";
            if (e.link == os::LinkKind::inside) line += " -> " + target() + "/";
        } else if (e.kind == os::EntryKind::file) {
            line += shown_path(e.name);
            if (e.link == os::LinkKind::inside) line += " -> " + target();
            line += "  " + compact_size(e.size);
            if (e.size <= max_counted_file && counted_bytes_ + e.size <= max_counted_bytes) {
                if (const auto read = os::read_regular_file(std::string(e.real), max_counted_file)) {
                    const std::string& bytes = read->bytes;
                    counted_bytes_ += bytes.size();
                    if (read->stat.links > 1 && ignore_reads_) {
                        // What `read` refuses under --ignore-reads: its line count is not shown either.
                        line += ", other names (hard links): not read";
                        ++linked_;
                    } else if (bytes.find('\0') != std::string::npos) {
                        line += ", binary";
                    } else {
                        std::uint64_t lines = static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
                        if (!bytes.empty() && bytes.back() != '\n') ++lines;
                        line += ", " + base::with_commas(lines) + (lines == 1 ? " line" : " lines");
                    }
                }
            }
        } else {
            line += shown_path(e.name) + "  (not a file or folder: a FIFO, socket or device)";
        }
        return line;
    }

    const CallContext& ctx_;
    const ListingStart& start_;
    const std::size_t depth_;
    const std::size_t budget_;
    LeftOut left_out_;
    std::vector<Folder> folders_;  // folders_[d - 1]: the folder whose entries are at depth d
    std::string text_;
    std::uint64_t shown_ = 0, more_files_ = 0, more_folders_ = 0, unopened_ = 0, unread_ = 0;
    std::uint64_t text_json_ = 0, counted_after_budget_ = 0, counted_bytes_ = 0, unreadable_count_ = 0, linked_ = 0;
    const bool ignore_reads_ = ctx_.ignore && ctx_.ignore->settings().ignore_reads;
    bool over_budget_ = false, counted_all_ = true;
    std::vector<std::string> unreadable_;
};

ToolResult list_folder(CallContext& ctx, const ListArgs& args) {
    auto start = resolve_listing_start(ctx, args.path, "list");
    if (!start) return ToolResult::error(std::move(start).error());
    const std::size_t depth = static_cast<std::size_t>(std::clamp<std::int64_t>(args.depth, 1, 10));
    os::WalkOptions options = listing_walk_options(ctx, *start);
    options.max_depth = depth;
    options.include_hidden = args.include_hidden;
    const std::size_t budget = std::min(listing_text_budget, ctx.max_result_text());
    ListVisitor visitor(ctx, *start, depth, budget);
    const os::WalkSummary summary = os::walk_directory(options, visitor);
    if (summary.cancelled)
        return ToolResult::error("list of " + shown_path(start->folder.display) + " was cancelled.",
                                 base::ErrorReason::cancelled);
    return visitor.result(summary);
}

}  // namespace

asio::awaitable<ToolResult> run_list(CallContext& ctx, ListArgs args) {
    co_return co_await WorkPlacement::run(ctx, false, [&ctx, &args] { return list_folder(ctx, args); });
}

const ToolSpec& list_tool() {
    static const ToolSpec spec =
        define_tool("list", &run_list,
                    {
                        .kind = ToolKind::read_listing,
                        .safety_arguments = "",
                        .summary = "List a folder's files and folders, with sizes and line counts",
                    });
    return spec;
}

}  // namespace tools
