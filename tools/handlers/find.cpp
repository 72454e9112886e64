// The `find` tool: files by glob under a folder (tools::Glob: `**`, braces, sets; no
// backtracking), in path order or newest first, bounded, with what was left out counted.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <queue>

#include "text/paths/glob.hpp"
#include "tools/pipeline/listing.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/catalog.hpp"
#include "os/system_paths.hpp"

namespace tools {

struct FindArgs {
    std::string pattern;
    std::string path;           // "" = the first root
    std::string sort = "path";  // or "modified"
    std::int64_t max_results = 200;
    bool include_hidden = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FindArgs, pattern, path, sort, max_results, include_hidden)

namespace {

// Past the shown results the walk goes on only to count; after this many matches it stops.
constexpr std::uint64_t max_counted = 1000000;

// The literal folders a path pattern starts with ("src/lib/" for "src/lib/**/*.c"): only folders
// on that way can hold a match. "" when the first component has a wildcard or brace.
std::string literal_prefix(std::string_view pattern) {
    std::size_t keep = 0;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '*' || c == '?' || c == '[' || c == '{' || c == '\\') break;
        if (c == '/') keep = i + 1;
    }
    return std::string(pattern.substr(0, keep));
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string utc_time(std::int64_t mtime_ns) {
    const std::int64_t seconds = mtime_ns / 1000000000;  // since 1970 on every platform (os/file_status.hpp)
    // The calendar by <chrono>, not gmtime/strftime: no C runtime's range or parameter checks.
    using namespace std::chrono;
    const sys_seconds at{std::chrono::seconds{seconds}};
    const sys_days day = floor<days>(at);
    const year_month_day date{day};
    const hh_mm_ss<std::chrono::seconds> time{at - day};
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02u %02d:%02d:%02dZ", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                  static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                  static_cast<int>(time.seconds().count()));
    return buffer;
}

struct Match {
    std::int64_t mtime_ns = 0;
    std::uint64_t size = 0;
    std::string path;  // relative to the walk's start
    // Newest first; among equal times, by path.
    bool operator<(const Match& o) const { return mtime_ns != o.mtime_ns ? mtime_ns > o.mtime_ns : path < o.path; }
};

class FindVisitor : public os::WalkVisitor {
public:
    FindVisitor(const CallContext& ctx, const text::Glob& glob, std::string prefix, bool by_modified,
                std::size_t max_results)
        : glob_(glob),
          prefix_(std::move(prefix)),
          by_modified_(by_modified),
          max_results_(max_results),
          left_out_(!(ctx.ignore && ctx.ignore->settings().ignore_reads)) {}

    os::WalkStep entry(const os::WalkEntry& e) override {
        if (e.ignored) {
            left_out_.add(*e.ignored);
            return os::WalkStep::skip;
        }
        if (e.kind == os::EntryKind::directory) {
            if (prefix_.empty()) return os::WalkStep::go_on;
            const std::string folder = std::string(e.path) + "/";
            return starts_with(prefix_, folder) || starts_with(folder, prefix_) ? os::WalkStep::go_on
                                                                                : os::WalkStep::skip;
        }
        if (e.kind != os::EntryKind::file || !glob_.matches(e.name, e.path)) return os::WalkStep::go_on;
        ++total_;
        if (by_modified_) {
            Match m{e.mtime_ns, e.size, std::string(e.path)};
            if (newest_.size() < max_results_) {
                newest_.push(std::move(m));
            } else if (m < newest_.top()) {
                newest_.pop();
                newest_.push(std::move(m));
            }
        } else if (in_order_.size() < max_results_) {
            in_order_.push_back(Match{e.mtime_ns, e.size, std::string(e.path)});
        }
        if (total_ >= max_counted) {
            complete_ = false;
            return os::WalkStep::stop;
        }
        return os::WalkStep::go_on;
    }

    void unreadable_folder(std::string_view path, std::string_view why) override {
        unreadable_.emplace_back(std::string(path), std::string(why));
    }

    std::vector<Match> matches() {
        if (!by_modified_) return std::move(in_order_);
        std::vector<Match> out;
        while (!newest_.empty()) {
            out.push_back(newest_.top());
            newest_.pop();
        }
        std::reverse(out.begin(), out.end());
        return out;
    }

    std::uint64_t total() const { return total_; }
    bool complete() const { return complete_; }
    LeftOut& left_out() { return left_out_; }
    const std::vector<std::pair<std::string, std::string>>& unreadable() const { return unreadable_; }

private:
    const text::Glob& glob_;
    const std::string prefix_;
    const bool by_modified_;
    const std::size_t max_results_;
    LeftOut left_out_;
    std::uint64_t total_ = 0;
    bool complete_ = true;
    std::vector<Match> in_order_;
    std::priority_queue<Match> newest_;  // the top is the oldest kept
    std::vector<std::pair<std::string, std::string>> unreadable_;
};

ToolResult find_files(CallContext& ctx, const FindArgs& args) {
    std::string pattern = args.pattern;
    while (starts_with(pattern, "./")) pattern.erase(0, 2);
    if (pattern.empty() || pattern.front() == '/' || os::is_absolute(pattern))
        return ToolResult::error("find: the pattern " + args.pattern +
                                     " must be relative to `path` (e.g. `**/*.py`, `src/**/test_*.ts`). Call find "
                                     "with path set to the folder and the pattern below it.",
                                 base::ErrorReason::invalid_arguments);
    if (pattern.back() == '/')
        return ToolResult::error("find: the pattern " + args.pattern +
                                     " ends in `/`; find matches files. To see a folder, call list with path set to "
                                     "it; to find files in it, add `**/*`.",
                                 base::ErrorReason::invalid_arguments);
    auto glob = text::Glob::parse(pattern);
    if (!glob)
        return ToolResult::error("find: " + glob.error().message + ". Use fewer or smaller {a,b} sets.",
                                 base::ErrorReason::invalid_arguments);
    auto start = resolve_listing_start(ctx, args.path, "find");
    if (!start) return ToolResult::error(std::move(start).error());

    const bool by_modified = args.sort == "modified";
    const std::size_t max_results = static_cast<std::size_t>(std::clamp<std::int64_t>(args.max_results, 1, 5000));
    os::WalkOptions options = listing_walk_options(ctx, *start);
    options.stat_files = by_modified;
    options.include_hidden = args.include_hidden || starts_with(pattern, ".") ||
                             pattern.find("/.") != std::string::npos || pattern.find("{.") != std::string::npos ||
                             pattern.find(",.") != std::string::npos;
    // A path pattern without `**` matches nothing below its own depth: the walk stops there (not a cap).
    const bool depth_is_cap = !(pattern.find("**") == std::string::npos && glob->on_path());
    if (!depth_is_cap)
        options.max_depth = static_cast<std::size_t>(std::count(pattern.begin(), pattern.end(), '/')) + 1;
    FindVisitor visitor(ctx, *glob, glob->on_path() ? literal_prefix(pattern) : "", by_modified, max_results);
    const os::WalkSummary summary = os::walk_directory(options, visitor);
    if (summary.cancelled)
        return ToolResult::error("find under " + shown_path(start->folder.display) + " was cancelled.",
                                 base::ErrorReason::cancelled);
    visitor.left_out().add_hidden(summary.hidden);
    const std::string caps = walk_caps_text(summary, *start, options.max_depth, depth_is_cap, "find");
    const bool complete = visitor.complete() && caps.empty();

    const std::size_t budget = std::min(listing_text_budget, ctx.max_result_text());
    const std::vector<Match> matches = visitor.matches();
    std::string body;
    std::size_t body_json = 0;
    std::size_t shown = 0;
    for (const auto& m : matches) {
        std::string line = listing_path(*start, m.path);
        if (by_modified) line += "  " + utc_time(m.mtime_ns) + "  " + compact_size(m.size);
        const std::size_t line_json = json_escaped_size(line) + 2;
        if (body_json + line_json > budget) break;
        body += line + "\n";
        body_json += line_json;
        ++shown;
    }
    const std::uint64_t total = visitor.total();
    const std::string where = start->folder.display == "." ? "" : " under " + shown_path(start->folder.display);
    std::string out;
    if (total == 0) {
        out = "No file matches `" + shown_text(args.pattern) + "`" + where + ".";
        if (!glob->on_path()) out += " (A pattern without `/` matches file names at any depth.)";
    } else {
        out = base::with_commas(total) + (complete ? "" : "+") + (total == 1 ? " file matches `" : " files match `") +
              shown_text(args.pattern) + "`" + where + (by_modified ? ", newest first" : "") + ":\n" + body;
        if (shown < total)
            out += "\xE2\x80\xA6 " + base::with_commas(total - shown) + (complete ? "" : "+") +
                   " more; narrow the pattern or the path" +
                   (shown < max_results ? " (one result stays under " + compact_size(budget) + " of JSON text)" : "") +
                   ".\n";
    }
    std::string notes;
    if (!caps.empty()) notes += caps + "\n";
    if (const std::string left = visitor.left_out().text(ctx.workspace, *start->root); !left.empty())
        notes += left + "\n";
    if (!visitor.unreadable().empty()) {
        std::string s = "Could not read " + base::with_commas(visitor.unreadable().size()) +
                        (visitor.unreadable().size() == 1 ? " folder: " : " folders: ");
        for (std::size_t i = 0; i < visitor.unreadable().size() && i < max_unreadable_named; ++i)
            s += (i ? ", " : "") + listing_path(*start, visitor.unreadable()[i].first) + " (" +
                 visitor.unreadable()[i].second + ")";
        notes += s + ".\n";
    }
    ToolResult r;
    r.structured = {
        {"pattern", shown_text(args.pattern)},
        {"path", shown_path(start->folder.display)},
        {"shown", shown},
        {"total", total},
        {"complete", complete},
        {"truncated", shown < total},
        {"left_out", visitor.left_out().json(ctx.workspace, *start->root)},
    };
    if (!visitor.unreadable().empty()) {
        Json list = Json::array();
        for (std::size_t i = 0; i < visitor.unreadable().size() && i < max_unreadable_named; ++i)
            list.push_back(listing_path(*start, visitor.unreadable()[i].first) + " (" + visitor.unreadable()[i].second +
                           ")");
        r.structured["unreadable"] = std::move(list);
    }
    r.text = fit_structured_text(r.structured, out, notes, "narrow the pattern or the path.");
    return r;
}

}  // namespace

asio::awaitable<ToolResult> run_find(CallContext& ctx, FindArgs args) {
    co_return co_await WorkPlacement::run(ctx, false, [&ctx, &args] { return find_files(ctx, args); });
}

const ToolSpec& find_tool() {
    static const ToolSpec spec = define_tool("find", &run_find,
                                             {
                                                 .kind = ToolKind::read_listing,
                                                 .safety_arguments = "",
                                                 .summary = "Find files by name (glob patterns)",
                                             });
    return spec;
}

}  // namespace tools
