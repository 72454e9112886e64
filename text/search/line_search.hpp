// The grep tool's search core: a pattern (PCRE2, JIT-compiled once per call) run over one file's
// bytes, yielding its matching lines with numbers and merged context, cut and shown as `read` shows them.
// Each line is matched alone (lookaround, \A and \Z see only that line), and no single PCRE2 call
// runs long: a cancelled search ends within milliseconds, whatever the pattern.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace text {

struct PatternOptions {
    bool literal = false;           // the pattern is plain text: no character is special
    bool case_insensitive = false;  // Unicode case folding when the pattern is valid UTF-8
};

// A compiled pattern. Immutable after compile(): one instance is shared by every worker thread,
// each of which searches with its own LineMatcher.
class LinePattern {
public:
    // The compiled pattern, or the message for a model: where in the pattern, why, and what to
    // write instead (or to pass literal: true).
    static base::Result<LinePattern, std::string> compile(std::string_view pattern, PatternOptions options);

    const std::string& source() const { return source_; }

    // True when the pattern may see past a line's ends if run over the whole file (lookaround,
    // \A \Z \z \G, atomic groups and possessive quantifiers, backtracking verbs, (?-m)): then
    // every line is its own subject. Otherwise the file is one subject (much faster) and each hit
    // is confirmed on its line alone when it could depend on another; the lines found are the same.
    bool each_line_alone() const;

    struct Code;  // the PCRE2 code (line_search.cpp)

private:
    friend class LineMatcher;
    std::shared_ptr<const Code> code_;
    std::string source_;
};

// What a search keeps of one file.
struct SearchLimits {
    std::size_t context = 0;                  // lines shown before and after each matching line
    std::size_t max_kept_matches = 0;         // matching lines kept (with their context); the rest only counted
    std::size_t max_kept_bytes = 0;           // bytes of kept line text; past it matching lines are only counted
    std::size_t max_line_bytes = 300;         // a longer line is cut around its match, "…" marking the cuts
    const std::atomic<bool>* stop = nullptr;  // when set (a cancelled call), the search ends where it is
};

struct FoundLine {
    std::size_t number = 0;   // 1-based, as `read` numbers lines (LF, CRLF and lone CR end a line)
    bool match = false;       // false: a context line
    bool gap_before = false;  // lines were skipped between the line kept before this one and this one
    std::string text;         // valid UTF-8 (bytes that are not: U+FFFD, as read shows them), no terminator
};

struct FileSearch {
    bool binary = false;             // NUL bytes, or a UTF-16/32 BOM: not searched
    bool stopped = false;            // SearchLimits::stop was seen set: the file was not searched to its end
    std::size_t matching_lines = 0;  // every matching line, kept or not
    std::size_t failed_lines = 0;    // lines where the pattern gave up (backtracking limit): not searched to the end
    std::vector<std::size_t> failed_at;  // the first of those lines' numbers (at most max_failed_named)
    static constexpr std::size_t max_failed_named = 10;
    std::vector<FoundLine> lines;  // the kept matching lines and their context, in order
    bool matches_dropped() const;  // some matching lines were only counted
    std::size_t kept_matches() const;
};

// What the caller already knows of the bytes it passes to search() (found while reading them).
struct KnownBytes {
    bool nul = false;  // a NUL byte somewhere
    bool cr = false;   // a CR somewhere
};

// One worker's matcher: PCRE2's match data and JIT stack for `pattern`. Not shared between threads.
class LineMatcher {
public:
    explicit LineMatcher(const LinePattern& pattern);
    ~LineMatcher();
    LineMatcher(const LineMatcher&) = delete;
    LineMatcher& operator=(const LineMatcher&) = delete;

    // Searches the whole of `bytes` (a file's content). A file is binary when its first 8 KiB
    // hold a NUL (then nothing more is looked at), or any NUL or a UTF-16/32 BOM is found: `read`
    // refuses such files and grep skips them. A UTF-8 BOM is not part of line 1's text.
    // `known`: the NUL and CR facts of `bytes`, so they are not looked for again.
    FileSearch search(std::string_view bytes, const SearchLimits& limits, const KnownBytes* known = nullptr);

    // True when the line's own text (no terminator) matches (false too when the pattern gave up).
    bool matches_line(std::string_view line);

    struct State;  // PCRE2's match data, match context and JIT stack, and the adaptive slice (line_search.cpp)

private:
    std::shared_ptr<const LinePattern::Code> code_;
    std::unique_ptr<State> state_;
};

// `line` as grep shows it: valid UTF-8, and when longer than `max_bytes` a window of about that
// many bytes around [match_begin, match_end) (the start when there is no match), "…" where cut.
std::string shown_line(std::string_view line, std::size_t match_begin, std::size_t match_end, std::size_t max_bytes);

}  // namespace text
