// The grep search core over PCRE2 (the pattern is compiled in line_pattern.cpp). A pattern that cannot see past a line's ends runs over the whole
// file at once (multiline, so ^ and $ meet line ends) and each hit is confirmed on its line alone when
// it could depend on another; any other pattern runs on each line as its own subject. Every PCRE2 call
// tries a bounded number of start positions (an offset limit that adapts to how long calls take), and
// the stop flag is checked between calls, so a cancelled search ends within milliseconds.
#include "text/search/line_search.hpp"

#include <pcre2.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include "text/bytes/byte_scan.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/search/line_pattern_code.hpp"
#include "text/bytes/lines.hpp"

namespace text {

namespace {

constexpr std::size_t binary_probe_bytes = 8 * 1024;
constexpr std::uint32_t match_limit = 1'000'000;  // backtracking steps per start position (a few ms)
// Start positions one PCRE2 call may try: the first call of a matcher tries first_slice; a call
// that took under fast_call doubles it (up to max_slice), one over slow_call quarters it (down to 1).
// One start position costs at most match_limit steps, so a call ends within a few milliseconds
// once the slice has adapted, and the stop flag is looked at between calls.
constexpr std::size_t first_slice = 64;
constexpr std::size_t max_slice = 1 << 20;
constexpr auto fast_call = std::chrono::milliseconds(1);
constexpr auto slow_call = std::chrono::milliseconds(8);
// A slow call that leaves the slice below this makes the matcher search line by line (see search()).
constexpr std::size_t per_line_below = 1024;
const std::string ellipsis = "\xE2\x80\xA6";

}  // namespace

bool FileSearch::matches_dropped() const { return kept_matches() < matching_lines; }

std::size_t FileSearch::kept_matches() const {
    return static_cast<std::size_t>(
        std::count_if(lines.begin(), lines.end(), [](const FoundLine& l) { return l.match; }));
}

namespace {

// What one attempt to find a match came to.
enum class RegexAttempt {
    found,    // ovector holds the match
    none,     // no match starts in the range
    gave_up,  // PCRE2 stopped with an error (match, depth or heap limit; JIT stack)
    stopped,  // the stop flag was seen set between calls
};

}  // namespace

struct LineMatcher::State {
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* stack = nullptr;
    std::size_t slice = first_slice;  // start positions per call, adapted to the pattern's cost
    bool costly = false;  // slow calls shrank the slice below per_line_below: search line by line from then on
    std::size_t slow_calls = 0;
    ~State() {
        if (data) pcre2_match_data_free(data);
        if (context) pcre2_match_context_free(context);
        if (stack) pcre2_jit_stack_free(stack);
    }

    // The first match in `subject` that starts in [start, last_start], found by calls that each
    // try at most `slice` start positions. `subject_end(limit)`: the subject's length for a call
    // whose matches start at most at `limit` (at least limit; a line's end, so no line is cut).
    template <class SubjectEnd>
    RegexAttempt first_match(const LinePattern::Code& code, const char* subject, std::size_t start,
                             std::size_t last_start, SubjectEnd subject_end, const std::atomic<bool>* stop) {
        const auto* units = reinterpret_cast<PCRE2_SPTR>(subject);
        for (;;) {
            const std::size_t limit = last_start - start > slice ? start + slice : last_start;
            const std::size_t length = subject_end(limit);
            pcre2_set_offset_limit(context, limit);
            const auto began = std::chrono::steady_clock::now();
            const int rc = code.jit ? pcre2_jit_match(code.code, units, length, start, 0, data, context)
                                    : pcre2_match(code.code, units, length, start, 0, data, context);
            const auto took = std::chrono::steady_clock::now() - began;
            if (took > slow_call) {
                slice = std::max<std::size_t>(1, slice / 4);
                // Three slow calls (not one preempted call) and a small slice: the pattern is costly.
                costly = costly || (++slow_calls >= 3 && slice < per_line_below);
            } else if (took < fast_call && rc == PCRE2_ERROR_NOMATCH && limit - start >= slice) {
                slice = std::min(max_slice, slice * 2);
            }
            if (rc >= 0) return RegexAttempt::found;
            if (rc != PCRE2_ERROR_NOMATCH) return RegexAttempt::gave_up;
            if (limit >= last_start) return RegexAttempt::none;
            start = limit + 1;
            // In UTF mode a start offset inside a character is refused: on to the next character's start.
            if (code.utf)
                for (int i = 0;
                     i < 3 && start < last_start && (static_cast<unsigned char>(subject[start]) & 0xC0) == 0x80; ++i)
                    ++start;
            if (stop && stop->load(std::memory_order_relaxed)) return RegexAttempt::stopped;
        }
    }

    // Matches `line` alone (its own subject: nothing before or after it is seen).
    RegexAttempt line_alone(const LinePattern::Code& code, std::string_view line, const std::atomic<bool>* stop) {
        const std::size_t size = line.size();
        return first_match(
            code, line.data(), 0, size, [size](std::size_t) { return size; }, stop);
    }
};

LineMatcher::LineMatcher(const LinePattern& pattern) : code_(pattern.code_), state_(std::make_unique<State>()) {
    state_->data = pcre2_match_data_create_from_pattern(code_->code, nullptr);
    state_->context = pcre2_match_context_create(nullptr);
    if (state_->context) {
        pcre2_set_match_limit(state_->context, match_limit);
        if (code_->jit) {
            state_->stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, nullptr);
            if (state_->stack) pcre2_jit_stack_assign(state_->context, nullptr, state_->stack);
        }
    }
    if (!state_->data || !state_->context) throw std::bad_alloc();
}

LineMatcher::~LineMatcher() = default;

namespace {

// The lines of one file's body, numbered as read numbers them.
class BodyLines {
public:
    BodyLines(std::string_view body, bool has_cr) : body_(body), cr_(has_cr) {}

    static bool is_end(char c) { return c == '\n' || c == '\r'; }

    // The start of the line that holds offset `at` (a terminator belongs to the line it ends).
    std::size_t start_of(std::size_t at) const {
        if (at > body_.size()) at = body_.size();
        if (cr_) {
            if (at < body_.size() && at > 0 && body_[at] == '\n' && body_[at - 1] == '\r') --at;
            while (at > 0 && !is_end(body_[at - 1])) --at;
            return at;
        }
        if (at == 0) return 0;
        const std::size_t nl = body_.rfind('\n', at - 1);
        return nl == std::string_view::npos ? 0 : nl + 1;
    }
    // The end of the line starting at `begin` (its terminator excluded).
    std::size_t end_of(std::size_t begin) const {
        const char* p = body_.data() + begin;
        const std::size_t left = body_.size() - begin;
        if (!cr_) {
            const void* nl = std::memchr(p, '\n', left);
            return nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - body_.data()) : body_.size();
        }
        std::size_t i = begin;
        while (i < body_.size() && !is_end(body_[i])) ++i;
        return i;
    }
    // The start of the line after the one that ends at `end`.
    std::size_t next_start(std::size_t end) const {
        if (end >= body_.size()) return body_.size();
        return end + ((body_[end] == '\r' && end + 1 < body_.size() && body_[end + 1] == '\n') ? 2 : 1);
    }
    // How many lines start in (from, to], both line starts.
    std::size_t count_between(std::size_t from, std::size_t to) const {
        const std::string_view span = body_.substr(from, to - from);
        if (!cr_) return count_byte(span, '\n');
        std::size_t n = 0;
        for (std::size_t i = 0; i < span.size(); ++i) {
            if (span[i] == '\n')
                ++n;
            else if (span[i] == '\r' && !(i + 1 < span.size() && span[i + 1] == '\n'))
                ++n;
        }
        return n;
    }

private:
    std::string_view body_;
    bool cr_;
};

}  // namespace

bool LineMatcher::matches_line(std::string_view line) {
    return state_->line_alone(*code_, line, nullptr) == RegexAttempt::found;
}

FileSearch LineMatcher::search(std::string_view bytes, const SearchLimits& limits, const KnownBytes* known) {
    FileSearch out;
    if (known ? known->nul : std::memchr(bytes.data(), '\0', std::min(bytes.size(), binary_probe_bytes)) != nullptr) {
        out.binary = true;
        return out;
    }
    std::size_t bom_size = 0;
    const Bom bom = detect_bom(bytes, &bom_size);
    const std::string_view body = bytes.substr(bom_size);
    // Two memchr passes (vectorised by the C library) find NUL and CR faster than one census pass.
    // (A UTF-8 BOM holds neither NUL nor CR: facts known of `bytes` hold for `body`.)
    const bool has_nul = !known && body.size() > binary_probe_bytes && std::memchr(body.data(), '\0', body.size());
    if ((bom != Bom::none && bom != Bom::utf8) || has_nul) {
        out.binary = true;
        return out;
    }

    const BodyLines lines(body, known ? known->cr : std::memchr(body.data(), '\r', body.size()) != nullptr);
    PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state_->data);

    std::size_t kept_bytes = 0, kept_matches = 0;
    bool keeping = limits.max_kept_matches > 0;
    // Line numbers are counted only up to where they are needed: `counted_at` is a line start
    // whose number is `counted_line`.
    std::size_t counted_at = 0, counted_line = 1;
    auto number_of = [&](std::size_t line_start) {
        counted_line += lines.count_between(counted_at, line_start);
        counted_at = line_start;
        return counted_line;
    };
    // The kept lines' end: the last kept line's number and where the line after it starts.
    std::size_t last_kept = 0, after_last_kept = 0;
    std::size_t after_left = 0;  // context lines still owed after the last matching line
    auto keep = [&](std::size_t number, std::size_t begin, std::size_t end, bool match, std::size_t mb,
                    std::size_t me) {
        FoundLine line;
        line.number = number;
        line.match = match;
        line.gap_before = limits.context > 0 && last_kept != 0 && number > last_kept + 1;
        line.text = shown_line(body.substr(begin, end - begin), mb, me, limits.max_line_bytes);
        kept_bytes += line.text.size() + 16;
        kept_matches += match ? 1 : 0;
        last_kept = number;
        after_last_kept = lines.next_start(end);
        out.lines.push_back(std::move(line));
    };
    // The context owed after the last matching line, up to (not including) the line at `limit`.
    auto pay_after = [&](std::size_t limit) {
        while (after_left > 0 && after_last_kept < limit && after_last_kept < body.size()) {
            const std::size_t begin = after_last_kept, end = lines.end_of(begin);
            keep(last_kept + 1, begin, end, false, 0, 0);
            --after_left;
        }
        after_left = 0;
    };

    // A line where the pattern gave up: counted, the first ones by number.
    auto gave_up_on = [&](std::size_t begin) {
        ++out.failed_lines;
        if (out.failed_at.size() < FileSearch::max_failed_named) out.failed_at.push_back(number_of(begin));
    };
    // A matching line [begin, end), its match at [mb, me) of it.
    auto matched = [&](std::size_t begin, std::size_t end, std::size_t mb, std::size_t me) {
        ++out.matching_lines;
        if (keeping && (kept_matches >= limits.max_kept_matches || kept_bytes >= limits.max_kept_bytes)) {
            pay_after(begin);
            keeping = false;
        }
        if (!keeping) return;
        const std::size_t number = number_of(begin);
        pay_after(begin);
        // Context before: back from this line, not into lines already kept.
        std::vector<std::pair<std::size_t, std::size_t>> before;  // line starts and ends, nearest first
        std::size_t at = begin;
        while (before.size() < limits.context && at > 0) {
            const std::size_t prev_start = lines.start_of(at - 1);
            if (prev_start < after_last_kept) break;
            before.emplace_back(prev_start, lines.end_of(prev_start));
            at = prev_start;
        }
        for (std::size_t i = before.size(); i-- > 0;)
            keep(number - i - 1, before[i].first, before[i].second, false, 0, 0);
        keep(number, begin, end, true, mb, me);
        after_left = limits.context;
    };
    // The line [begin, end) decided alone; false when the stop flag was seen.
    auto decide_alone = [&](std::size_t begin, std::size_t end) {
        switch (state_->line_alone(*code_, body.substr(begin, end - begin), limits.stop)) {
            case RegexAttempt::found: matched(begin, end, ovector[0], ovector[1]); return true;
            case RegexAttempt::none: return true;
            case RegexAttempt::gave_up: gave_up_on(begin); return true;
            case RegexAttempt::stopped: break;
        }
        out.stopped = true;
        return false;
    };

    // The whole file as one subject. A call whose starts end at `limit` sees up to the end of the
    // line holding `limit` (found once per line: later limits in the same line reuse it).
    std::size_t end_known_from = 1,
                end_known = 0;  // end_known is the line end for limits in [end_known_from, end_known]
    const auto subject_end = [&](std::size_t limit) {
        if (limit >= body.size()) return body.size();
        if (limit < end_known_from || limit > end_known) {
            end_known_from = limit;
            end_known = lines.end_of(limit);
        }
        return end_known;
    };
    std::size_t from = 0;
    bool alone = false;  // this file line by line from here on
    while (from < body.size()) {
        if (limits.stop && limits.stop->load(std::memory_order_relaxed)) {
            out.stopped = true;
            break;
        }
        // Line by line when the pattern asks for it, or once it proved so costly per start position
        // that the slice shrank: then no start explores past its own line.
        if (alone || code_->each_line_alone || state_->costly) {
            const std::size_t end = lines.end_of(from);
            if (!decide_alone(from, end)) break;
            from = lines.next_start(end);
            continue;
        }
        const RegexAttempt attempt =
            state_->first_match(*code_, body.data(), from, body.size(), subject_end, limits.stop);
        if (attempt == RegexAttempt::none) break;
        if (attempt == RegexAttempt::stopped) {
            out.stopped = true;
            break;
        }
        if (attempt == RegexAttempt::gave_up) {
            // Somewhere from this line on the pattern gave up: from this line on, each line alone
            // decides (so a line it gives up on costs one try, not two).
            alone = true;
            continue;
        }
        const std::size_t s = ovector[0], e = ovector[1];
        std::size_t begin = lines.start_of(s);
        if (begin < from) begin = from;
        const std::size_t end = lines.end_of(begin);
        if (e > end || s > end || code_->looks_behind) {
            // The hit crossed a line end or may have looked at the line before: the line alone decides.
            if (!decide_alone(begin, end)) break;
        } else {
            matched(begin, end, s - begin, e - begin);
        }
        from = lines.next_start(end);
    }
    if (keeping) pay_after(body.size());
    return out;
}

std::string shown_line(std::string_view line, std::size_t match_begin, std::size_t match_end, std::size_t max_bytes) {
    match_begin = std::min(match_begin, line.size());
    match_end = std::clamp(match_end, match_begin, line.size());
    if (line.size() <= max_bytes) return is_valid_utf8(line) ? std::string(line) : to_valid_utf8(line);
    // A window of max_bytes: the match centred in it when it fits, else from the match's start.
    const std::size_t match_size = match_end - match_begin;
    std::size_t first = match_begin;
    if (match_size < max_bytes) {
        const std::size_t slack = (max_bytes - match_size) / 2;
        first = match_begin > slack ? match_begin - slack : 0;
    }
    std::size_t last = std::min(line.size(), first + max_bytes);
    if (last - first < max_bytes && last == line.size()) first = line.size() - max_bytes;
    first = utf8_floor(line, first);
    last = utf8_floor(line, last);
    const std::string_view window = line.substr(first, last - first);
    std::string out;
    if (first > 0) out += ellipsis;
    out += is_valid_utf8(window) ? std::string(window) : to_valid_utf8(window);
    if (last < line.size()) out += ellipsis;
    return out;
}

}  // namespace text
