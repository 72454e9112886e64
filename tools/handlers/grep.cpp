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
#include "text/search/line_search.hpp"
#include "text/paths/glob.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/bytes/lines.hpp"
#include "tools/pipeline/file_access.hpp"
#include "tools/pipeline/listing.hpp"
#include "tools/pipeline/listing_messages.hpp"
#include "tools/pipeline/placement.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/grep_report.hpp"

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

bool starts_with_utf16_bom(std::string_view bytes) {
    return bytes.size() >= 2 &&
           ((bytes[0] == '\xFF' && bytes[1] == '\xFE') || (bytes[0] == '\xFE' && bytes[1] == '\xFF'));
}

// Whether every match of the pattern is ASCII bytes standing for themselves: plain text of printable
// ASCII (literal, or a regex of letters, digits, _ and spaces), case-sensitive (Unicode case folding
// lets k match U+212A, the Kelvin sign).
bool plain_ascii_pattern(const GrepArgs& args) {
    if (args.case_insensitive || args.pattern.empty()) return false;
    return std::all_of(args.pattern.begin(), args.pattern.end(), [&args](char c) {
        const bool printable = c >= ' ' && c <= '~';
        const bool word =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ' ';
        return args.literal ? printable : word;
    });
}

// A file to search: its number in walk order, where it is, how it is shown.
struct Job {
    std::size_t seq = 0;
    std::string real;
    std::string shown;
};

// The walk (one thread) hands files to the workers through a queue bounded in files and bytes;
// the workers' outcomes come back keyed by walk order and are reported in that order.
class Pipeline {
public:
    // `plain_ascii`: see plain_ascii_pattern.
    Pipeline(const CallContext& ctx, const text::LinePattern& pattern, text::SearchLimits limits, bool plain_ascii)
        : ctx_(ctx), pattern_(pattern), limits_(limits), plain_ascii_(plain_ascii) {
        const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
        const unsigned count = std::min(4u, cores);
        for (unsigned i = 0; i < count; ++i) workers_.emplace_back([this] { work(); });
    }
    ~Pipeline() { close(); }

    bool cancelled() const { return ctx_.scope.cancelled->load(); }

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
        const auto read = reader.read(job.real, ctx_.settings.limits.max_file_size, ignore_reads);
        if (!read) {
            out.too_large = read.error().why == os::ReadFailure::Why::too_large;
            out.unreadable = !out.too_large;
            return out;
        }
        if (reader.linked()) {
            out.linked = true;
            return out;
        }
        std::string_view bytes = *read;
        text::KnownBytes known{reader.has_nul(), reader.has_cr()};
        text::SearchLimits limits = limits_;
        if (counting_only.load()) limits.max_kept_matches = 0;
        // A file in another encoding (GBK, Shift_JIS, cp1252, Latin-1, UTF-16 with a BOM) is searched
        // as its text, as `read` shows it: a UTF-8 pattern finds its words, its lines are shown as
        // text, and their numbers are the same. Decided only for the files that may be one and, for
        // a pattern of plain ASCII, only for those whose bytes match it: such a pattern finds no line
        // in the text that it does not find in the bytes (an ASCII character is its own byte in these
        // encodings), so the other files skip the UTF-8 check.
        const bool utf16 = starts_with_utf16_bom(bytes);
        bool searched = false;
        if (plain_ascii_ && !utf16) {
            out.search = matcher.search(bytes, limits, &known);
            searched = true;
        }
        std::string decoded;
        if (utf16 || (!known.nul && !(searched && out.search.matching_lines == 0) && !text::is_valid_utf8(bytes))) {
            const text::Bom bom = text::detect_bom(bytes);
            const FileEncoding encoding =
                decide_file_encoding(ctx_, job.real, bytes, bom != text::Bom::none, {}, decoded);
            if (encoding.transcoded) {
                out.encoding = encoding.name;
                bytes = decoded;
                known = {decoded.find('\0') != std::string::npos, decoded.find('\r') != std::string::npos};
                searched = false;
            }
        }
        if (!searched) out.search = matcher.search(bytes, limits, &known);
        out.bytes = sizeof(GrepOutcome) + out.shown.size();
        for (const auto& line : out.search.lines) out.bytes += sizeof(line) + line.text.size();
        return out;
    }

    const CallContext& ctx_;
    const text::LinePattern& pattern_;
    const text::SearchLimits limits_;
    const bool plain_ascii_;
    std::mutex mutex_;
    std::condition_variable work_ready_, changed_;
    std::deque<Job> queue_;
    std::size_t queued_bytes_ = 0, in_flight_ = 0, next_seq_ = 0, next_report_ = 0, done_bytes_ = 0;
    std::map<std::size_t, GrepOutcome> done_;
    bool closing_ = false;
    std::vector<std::thread> workers_;
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
    if (!pattern) return ToolResult::error(grep_pattern_message(pattern.error()), base::ErrorReason::invalid_arguments);
    std::optional<text::Glob> glob;
    if (!args.glob.empty()) {
        auto parsed = text::Glob::parse(args.glob);
        if (!parsed) {
            // The glob named, cut to a line's length (the parser's own message names it cut too).
            const std::size_t cut = text::utf8_floor(args.glob, std::min<std::size_t>(args.glob.size(), 80));
            return ToolResult::error(
                grep_glob_message(shown_text(args.glob.substr(0, cut)), cut < args.glob.size(), parsed.error().message),
                base::ErrorReason::invalid_arguments);
        }
        glob = std::move(parsed).value();
    }

    text::SearchLimits limits;
    limits.stop = ctx.scope.cancelled.get();
    limits.context = static_cast<std::size_t>(args.context);
    limits.max_kept_matches = static_cast<std::size_t>(args.max_results);
    const std::size_t budget = std::min(grep_text_budget, ctx.max_result_text());
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
                return ToolResult::error(grep_hard_links_message(shown, links), base::ErrorReason::ignored);
        }
        Pipeline pipeline(ctx, *pattern, limits, plain_ascii_pattern(args));
        pipeline.report_ = [&](GrepOutcome& o) { report.add(o); };
        if (!pipeline.submit(Job{0, resolved.real, shown}) || !pipeline.finish())
            return cancelled_result(resolved.display);
        return report.result(args.pattern, shown, args.literal);
    }

    auto start = resolve_listing_start(ctx, args.path, "grep");
    if (!start) return ToolResult::error(std::move(start).error());
    os::WalkOptions options = listing_walk_options(ctx, *start);
    options.stat_files = false;
    Pipeline pipeline(ctx, *pattern, limits, plain_ascii_pattern(args));
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
