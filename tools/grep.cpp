// The `grep` tool: a regular expression (PCRE2) or literal searched in the files under a folder,
// the walk streaming into a few worker threads, results in path order, bounded for a model's context.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "os/directory_walk.hpp"
#include "os/search_reader.hpp"
#include "text/line_search.hpp"
#include "text/glob.hpp"
#include "text/lines.hpp"
#include "tools/file_access.hpp"
#include "tools/listing.hpp"
#include "tools/placement.hpp"
#include "tools/catalog.hpp"

namespace tools {

struct GrepArgs {
    std::string pattern;
    std::string path;  // "" = the first root; a folder or one file
    std::string glob;  // "" = every file
    bool literal = false;
    bool case_insensitive = false;
    std::int64_t context = 0;
    std::int64_t max_results = 200;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GrepArgs, pattern, path, glob, literal, case_insensitive, context,
                                                max_results)

namespace {

// The shown lines' text and the per-file facts in `files` stay under this many characters of JSON
// (about 9,000 tokens; and the text under max_result_text); past it, matches are counted and the
// end says how many and where. With the summary and notes the whole structuredContent stays under
// max_structured_json (fit_structured_text checks).
constexpr std::size_t grep_text_budget = 36 * 1024;
constexpr std::size_t max_shown_line_bytes = 300;  // a longer line is shown as a window around its match
// Files handed to workers and not yet reported, at most: many, so that while one worker is in a big
// file the other goes on through the small files after it (reports wait for the big one, in order).
constexpr std::size_t window_files = 1024;
constexpr std::size_t window_path_bytes = 1 << 20;    // the queued paths' bytes, at most
constexpr std::size_t window_result_bytes = 4 << 20;  // the kept lines of searched, unreported files, about at most
constexpr std::size_t kept_buffer_bytes = 16 << 20;   // a worker's read buffer, kept between files up to this size

// A file to search: its number in walk order, where it is, how it is shown.
struct Job {
    std::size_t seq = 0;
    std::string real;
    std::string shown;
};

struct GrepOutcome {
    text::FileSearch search;
    std::size_t bytes = 0;  // what it holds, about (counted against window_result_bytes)
    bool too_large = false;
    bool unreadable = false;
    bool linked = false;  // other names (hard links) under --ignore-reads: not read, as `read` refuses it
    std::string shown;
};

// The walk (one thread) hands files to the workers through a queue bounded in files and bytes;
// the workers' outcomes come back keyed by walk order and are reported in that order.
class Pipeline {
public:
    Pipeline(const CallContext& ctx, const text::LinePattern& pattern, text::SearchLimits limits)
        : ctx_(ctx), pattern_(pattern), limits_(limits) {
        const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
        const unsigned count = std::min(4u, cores);
        for (unsigned i = 0; i < count; ++i) workers_.emplace_back([this] { work(); });
    }
    ~Pipeline() { close(); }

    bool cancelled() const { return ctx_.cancelled->load(); }

    // Waits for room, then queues the file. False when the call was cancelled.
    bool submit(Job job) {
        std::unique_lock lock(mutex_);
        const std::size_t bytes = job.real.size() + job.shown.size();
        while (in_flight_ >= window_files || (in_flight_ > 0 && queued_bytes_ + bytes > window_path_bytes)) {
            if (cancelled()) return false;
            changed_.wait_for(lock, std::chrono::milliseconds(20));
            report_ready(lock);
        }
        job.seq = next_seq_++;
        queued_bytes_ += bytes;
        ++in_flight_;
        queue_.push_back(std::move(job));
        lock.unlock();
        work_ready_.notify_one();
        return true;
    }

    // Reports what is done, in walk order, through `report_`.
    void drain() {
        std::unique_lock lock(mutex_);
        report_ready(lock);
    }

    // Waits for every queued file; false when cancelled first.
    bool finish() {
        std::unique_lock lock(mutex_);
        while (in_flight_ > 0) {
            if (cancelled()) return false;
            changed_.wait_for(lock, std::chrono::milliseconds(20));
            report_ready(lock);
        }
        return true;
    }

    void close() {
        {
            std::lock_guard lock(mutex_);
            closing_ = true;
        }
        work_ready_.notify_all();
        for (auto& w : workers_)
            if (w.joinable()) w.join();
        workers_.clear();
    }

    // Called with each outcome, in walk order, on the walk's thread (the lock is not held).
    std::function<void(GrepOutcome&)> report_;
    // Set once the reported lines fill the result: later files are only counted.
    std::atomic<bool> counting_only{false};

private:
    void report_ready(std::unique_lock<std::mutex>& lock) {
        while (true) {
            const auto it = done_.find(next_report_);
            if (it == done_.end()) return;
            GrepOutcome outcome = std::move(it->second);
            done_.erase(it);
            ++next_report_;
            // Past the bound workers may wait for room, or for their file to be the next reported (see work).
            if (done_bytes_ >= window_result_bytes) work_ready_.notify_all();
            done_bytes_ -= outcome.bytes;
            lock.unlock();
            report_(outcome);
            lock.lock();
            --in_flight_;
        }
    }

    void work() {
        text::LineMatcher matcher(pattern_);
        os::SearchReader reader;  // its buffer and last folder are kept from file to file
        while (true) {
            Job job;
            {
                std::unique_lock lock(mutex_);
                // Past window_result_bytes of unreported results, only the file reported next is
                // taken (it is at the queue's front or being searched): the others wait for room.
                work_ready_.wait(lock, [this] {
                    return closing_ || (!queue_.empty() &&
                                        (done_bytes_ < window_result_bytes || queue_.front().seq == next_report_));
                });
                if (queue_.empty()) return;
                job = std::move(queue_.front());
                queue_.pop_front();
                queued_bytes_ -= job.real.size() + job.shown.size();
            }
            GrepOutcome outcome = search(matcher, reader, job);
            reader.release_above(kept_buffer_bytes);
            bool awaited = false;  // the walk can report only in order: wake it for the next one it needs
            {
                std::lock_guard lock(mutex_);
                awaited = job.seq == next_report_;
                done_bytes_ += outcome.bytes;
                done_.emplace(job.seq, std::move(outcome));
            }
            if (awaited) changed_.notify_all();
        }
    }

    GrepOutcome search(text::LineMatcher& matcher, os::SearchReader& reader, const Job& job) {
        GrepOutcome out;
        out.shown = job.shown;
        if (cancelled()) return out;
        const bool ignore_reads = ctx_.ignore && ctx_.ignore->settings().ignore_reads;
        const auto read = reader.read(job.real, ctx_.limits.max_file_size, ignore_reads);
        if (!read) {
            out.too_large = read.error().why == os::ReadFailure::Why::too_large;
            out.unreadable = !out.too_large;
            return out;
        }
        if (reader.linked()) {
            out.linked = true;
            return out;
        }
        const std::string_view bytes = *read;
        text::SearchLimits limits = limits_;
        if (counting_only.load()) limits.max_kept_matches = 0;
        const text::KnownBytes known{reader.has_nul(), reader.has_cr()};
        out.search = matcher.search(bytes, limits, &known);
        out.bytes = sizeof(GrepOutcome) + out.shown.size();
        for (const auto& line : out.search.lines) out.bytes += sizeof(line) + line.text.size();
        return out;
    }

    const CallContext& ctx_;
    const text::LinePattern& pattern_;
    const text::SearchLimits limits_;
    std::mutex mutex_;
    std::condition_variable work_ready_, changed_;
    std::deque<Job> queue_;
    std::size_t queued_bytes_ = 0, in_flight_ = 0, next_seq_ = 0, next_report_ = 0, done_bytes_ = 0;
    std::map<std::size_t, GrepOutcome> done_;
    bool closing_ = false;
    std::vector<std::thread> workers_;
};

// The result as it is built: file groups in walk order until the bounds, then counts only.
class GrepReport {
public:
    GrepReport(std::size_t max_results, std::size_t budget) : max_results_(max_results), budget_(budget) {}

    // False once nothing more will be shown.
    bool add(GrepOutcome& o) {
        ++searched_;
        if (o.too_large) ++too_large_;
        if (o.unreadable) ++unreadable_;
        if (o.linked) ++linked_;
        if (o.search.binary) ++binary_;
        if (o.search.failed_lines) {
            failed_lines_ += o.search.failed_lines;
            for (const std::size_t line : o.search.failed_at)
                if (failed_named_.size() < max_failed_named)
                    failed_named_.push_back(o.shown + ":" + std::to_string(line));
        }
        const std::size_t found = o.search.matching_lines;
        if (found == 0) return !full_;
        matches_ += found;
        ++files_with_matches_;
        std::size_t shown_here = 0;
        if (!full_ && !o.search.lines.empty()) {
            std::string group = (text_.empty() ? "" : "\n") + o.shown + "\n";
            // The group's text in JSON, and its entry in `files`: {"lines":[..],"matches":N,"path":".."},
            std::size_t group_json = json_escaped_size(group) + json_escaped_size(o.shown) + 48;
            Json lines = Json::array();
            for (const auto& line : o.search.lines) {
                if (json_used_ + group_json > budget_) break;
                if (line.match && shown_matches_ >= max_results_) break;
                std::string entry = (line.gap_before ? "--\n" : "") + std::to_string(line.number) +
                                    (line.match ? ":" : "-") + line.text + "\n";
                const std::size_t entry_json = json_escaped_size(entry) + (line.match ? 21 : 0);
                if (json_used_ + group_json + entry_json > budget_) break;
                group += entry;
                group_json += entry_json;
                if (line.match) {
                    lines.push_back(line.number);
                    ++shown_matches_;
                    ++shown_here;
                }
            }
            if (shown_here > 0) {
                text_ += group;
                json_used_ += group_json;
                files_.push_back({{"path", o.shown}, {"matches", found}, {"lines", std::move(lines)}});
            }
        }
        if (shown_here < found) {
            hidden_matches_ += found - shown_here;
            ++hidden_files_;
            full_ = true;  // a file not shown whole: later files would break the order
        }
        if (shown_matches_ >= max_results_ || json_used_ >= budget_) full_ = true;
        return !full_;
    }

    // `notes`: what the walk left out (a line, or ""), after the counts; `left_out` its JSON (or null).
    // `capped`: the walk reached a cap (said in notes): not every file was searched.
    ToolResult result(const std::string& pattern, const std::string& where, bool literal, const std::string& notes = "",
                      const Json& left_out = nullptr, bool capped = false) const {
        std::string head;
        if (matches_ == 0) {
            head = "No matches for " + std::string(literal ? "the text" : "the pattern") + " `" + shown_text(pattern) +
                   "` in " + base::count_of(searched_ - binary_ - too_large_ - unreadable_ - linked_, "file", "files") +
                   " under " + where + ".";
        } else {
            head = base::count_of(matches_, "matching line", "matching lines") + " in " +
                   base::count_of(files_with_matches_, "file", "files") + " under " + where + " (" +
                   base::count_of(searched_, "file", "files") + " searched)" +
                   (hidden_matches_ ? "; " + base::with_commas(shown_matches_) + " shown" : std::string()) + ":";
        }
        std::string tail;
        if (hidden_matches_)
            tail += "\n" + base::count_of(hidden_matches_, "more match", "more matches") + " in " +
                    base::count_of(hidden_files_, "file", "files") +
                    "; narrow with glob or path (or raise max_results).";
        std::vector<std::string> skipped;
        if (binary_) skipped.push_back(base::count_of(binary_, "binary file", "binary files"));
        if (too_large_) skipped.push_back(base::count_of(too_large_, "file", "files") + " over --max-file-size");
        if (unreadable_) skipped.push_back(base::count_of(unreadable_, "file", "files") + " that could not be read");
        if (linked_)
            skipped.push_back(base::count_of(linked_, "file", "files") +
                              " with other names (hard links), which --ignore-reads keeps from being read (one of "
                              "the names may be an ignored file's)");
        if (!skipped.empty()) {
            tail += "\nNot searched: ";
            for (std::size_t i = 0; i < skipped.size(); ++i) tail += (i ? ", " : "") + skipped[i];
            tail += ".";
        }
        if (failed_lines_) {
            tail += "\nThe pattern gave up (too much backtracking) on " +
                    base::count_of(failed_lines_, "line", "lines") + ", which " +
                    (failed_lines_ == 1 ? "was" : "were") + " not searched: ";
            for (std::size_t i = 0; i < failed_named_.size(); ++i) tail += (i ? ", " : "") + failed_named_[i];
            if (failed_lines_ > failed_named_.size())
                tail += ", and " + base::with_commas(failed_lines_ - failed_named_.size()) + " more";
            tail += ". Simplify nested repetitions such as (a+)+ or long ranges such as [\\s\\S]{1,4000}.";
        }
        ToolResult r;
        r.text = head + (text_.empty() ? "" : "\n" + text_) + tail;
        while (!r.text.empty() && r.text.back() == '\n') r.text.pop_back();
        if (!notes.empty()) r.text += "\n" + notes;
        r.structured = {
            {"text", r.text},
            {"matches", matches_},
            {"files_with_matches", files_with_matches_},
            {"shown_matches", shown_matches_},
            {"more_matches", hidden_matches_},
            {"more_files", hidden_files_},
            {"files_searched", searched_},
            {"binary_skipped", binary_},
            {"truncated", hidden_matches_ > 0},
            {"complete", !capped && failed_lines_ == 0 && linked_ == 0 && too_large_ == 0 && unreadable_ == 0},
            {"files", files_},
        };
        if (!left_out.is_null()) r.structured["left_out"] = left_out;
        // The bound is checked on what the host serializes; past it the lines are cut, the tail kept.
        if (r.structured.dump().size() > max_structured_json) {
            while (!tail.empty() && tail.front() == '\n') tail.erase(0, 1);
            if (!notes.empty()) tail += "\n" + notes;
            r.text = fit_structured_text(r.structured, head + (text_.empty() ? "" : "\n" + text_), tail,
                                         "narrow with glob or path.");
        }
        return r;
    }

    std::string left_out_text;

private:
    std::size_t max_results_, budget_;
    std::size_t json_used_ = 0;  // text_ and files_ in JSON characters
    std::string text_;
    Json files_ = Json::array();
    bool full_ = false;
    static constexpr std::size_t max_failed_named = 10;  // lines the pattern gave up on, named as path:line
    std::vector<std::string> failed_named_;
    std::uint64_t searched_ = 0, binary_ = 0, too_large_ = 0, unreadable_ = 0, failed_lines_ = 0, linked_ = 0;
    std::uint64_t matches_ = 0, files_with_matches_ = 0, shown_matches_ = 0, hidden_matches_ = 0, hidden_files_ = 0;
};

class GrepVisitor : public os::WalkVisitor {
public:
    GrepVisitor(const CallContext& ctx, Pipeline& pipeline, const text::Glob* glob, const ListingStart& start)
        : pipeline_(pipeline),
          glob_(glob),
          start_(start),
          left_out_(!(ctx.ignore && ctx.ignore->settings().ignore_reads)) {}

    os::WalkStep entry(const os::WalkEntry& e) override {
        if (e.ignored) {
            left_out_.add(*e.ignored);
            return os::WalkStep::skip;
        }
        if (e.kind != os::EntryKind::file) return os::WalkStep::go_on;
        if (glob_ && !glob_->matches(e.name, e.path)) return os::WalkStep::go_on;
        pipeline_.drain();
        if (!pipeline_.submit(Job{0, std::string(e.real), listing_path(start_, e.path)})) return os::WalkStep::stop;
        return os::WalkStep::go_on;
    }

    const LeftOut& left_out() const { return left_out_; }

private:
    Pipeline& pipeline_;
    const text::Glob* glob_;
    const ListingStart& start_;
    LeftOut left_out_;
};

ToolResult cancelled_result(const std::string& where) {
    return ToolResult::error("grep under " + shown_path(where) + " was cancelled.", base::ErrorReason::cancelled);
}

ToolResult grep_files(CallContext& ctx, const GrepArgs& args) {
    auto pattern = text::LinePattern::compile(args.pattern, {args.literal, args.case_insensitive});
    if (!pattern) return ToolResult::error("grep: " + pattern.error(), base::ErrorReason::invalid_arguments);
    std::optional<text::Glob> glob;
    if (!args.glob.empty()) {
        auto parsed = text::Glob::parse(args.glob);
        if (!parsed) {
            // The glob named, cut to a line's length (the parser's own message names it cut too).
            const std::size_t cut = text::utf8_floor(args.glob, std::min<std::size_t>(args.glob.size(), 80));
            return ToolResult::error("grep: glob `" + shown_text(args.glob.substr(0, cut)) +
                                         (cut < args.glob.size() ? "\u2026" : "") + "`: " + parsed.error().message +
                                         ". Send a glob such as `*.py`, `src/**/*.ts` or `*.{c,h}`, or leave glob out.",
                                     base::ErrorReason::invalid_arguments);
        }
        glob = std::move(parsed).value();
    }

    text::SearchLimits limits;
    limits.stop = ctx.cancelled.get();
    limits.context = static_cast<std::size_t>(args.context);
    limits.max_kept_matches = static_cast<std::size_t>(args.max_results);
    const std::size_t budget = std::min(grep_text_budget, ctx.limits.max_result_text);
    limits.max_kept_bytes = budget;
    limits.max_line_bytes = max_shown_line_bytes;
    GrepReport report(static_cast<std::size_t>(args.max_results), budget);

    // A file named as the path: that file alone.
    const std::string given = args.path.empty() ? "." : args.path;
    if (auto resolution = ctx.workspace.resolve(given);
        resolution && resolution->exists && os::stat_path(resolution->real).kind == os::FileKind::regular) {
        const os::ResolvedPath& resolved = *resolution;
        const std::string shown = shown_path(resolved.display);
        if (ctx.ignore && ctx.ignore->settings().ignore_reads) {
            if (auto refused = refuse_ignored(ctx, resolved, false); !refused)
                return ToolResult::error(std::move(refused).error());
            // As `read` refuses it (the reader checks again on the descriptor it opens).
            if (const auto links = os::stat_path(resolved.real).links; links > 1)
                return ToolResult::error(
                    "Refused: " + shown + " has " + std::to_string(links - 1) + " other name" +
                        (links == 2 ? "" : "s") +
                        " (hard links), and with --ignore-reads a file that may be an ignored file "
                        "under another name is not read or searched. Search other files, or ask "
                        "the user to give it a file of its own (copy it over itself).",
                    base::ErrorReason::ignored);
        }
        Pipeline pipeline(ctx, *pattern, limits);
        pipeline.report_ = [&](GrepOutcome& o) { report.add(o); };
        if (!pipeline.submit(Job{0, resolved.real, shown}) || !pipeline.finish())
            return cancelled_result(resolved.display);
        return report.result(args.pattern, shown, args.literal);
    }

    auto start = resolve_listing_start(ctx, args.path, "grep");
    if (!start) return ToolResult::error(std::move(start).error());
    os::WalkOptions options = listing_walk_options(ctx, *start);
    options.stat_files = false;
    Pipeline pipeline(ctx, *pattern, limits);
    pipeline.report_ = [&](GrepOutcome& o) {
        if (!report.add(o)) pipeline.counting_only = true;
    };
    GrepVisitor visitor(ctx, pipeline, glob ? &*glob : nullptr, *start);
    const os::WalkSummary summary = os::walk_directory(options, visitor);
    if (summary.cancelled || !pipeline.finish()) return cancelled_result(start->folder.display);
    pipeline.close();
    const std::string caps = walk_caps_text(summary, *start, options.max_depth, true, "grep");
    const std::string left = visitor.left_out().text(ctx.workspace, *start->root);
    const std::string notes = caps + (caps.empty() || left.empty() ? "" : "\n") + left;
    const std::string where = shown_path(start->folder.display);
    if (left.empty()) return report.result(args.pattern, where, args.literal, notes, nullptr, !caps.empty());
    return report.result(args.pattern, where, args.literal, notes, visitor.left_out().json(ctx.workspace, *start->root),
                         !caps.empty());
}

}  // namespace

asio::awaitable<ToolResult> run_grep(CallContext& ctx, GrepArgs args) {
    co_return co_await WorkPlacement::run(ctx, false, [&ctx, &args] { return grep_files(ctx, args); });
}

const ToolSpec& grep_tool() {
    static const ToolSpec spec =
        define_tool("grep", &run_grep,
                    {
                        .kind = ToolKind::read_listing,
                        .safety_arguments = "",
                        .summary = "Find the lines that match a pattern, in files under a folder",
                    });
    return spec;
}

}  // namespace tools
