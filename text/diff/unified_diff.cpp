// unified_diff: common prefix and suffix trimmed byte-wise and widened to whole lines, diff_lines on
// the window between, hunks with context from either side, headers and markers written here.
#include "text/diff/unified_diff.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "text/bytes/byte_scan.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/diff/line_edit_script.hpp"
#include "text/bytes/lines.hpp"
#include "text/diff/unified_headers.hpp"

namespace text {

namespace {

// Whether a line starts at p in x, judging only x[p-1] and x[p].
bool line_starts_at(std::string_view x, std::size_t p) {
    if (p == 0 || p >= x.size()) return true;
    const char c = x[p - 1];
    return c == '\n' || (c == '\r' && x[p] != '\n');
}

// Number of line terminators (LF, CRLF, lone CR) in x[0, p).
std::size_t lines_before(std::string_view x, std::size_t p) {
    const char* d = x.data();
    std::size_t n = count_byte(x.substr(0, p), '\n');
    for (const char* cr = static_cast<const char*>(std::memchr(d, '\r', p)); cr;
         cr = static_cast<const char*>(std::memchr(cr + 1, '\r', p - static_cast<std::size_t>(cr + 1 - d)))) {
        const std::size_t i = static_cast<std::size_t>(cr - d);
        if (i + 1 >= x.size() || x[i + 1] != '\n') ++n;
        if (i + 1 >= p) break;
    }
    return n;
}

// Start of the line before the one starting at p (p > 0, a line start).
std::size_t previous_line_start(std::string_view x, std::size_t p) {
    std::size_t e = p - 1;  // the terminator's last byte
    if (x[e] == '\n' && e > 0 && x[e - 1] == '\r') --e;
    while (e > 0) {
        const char c = x[e - 1];
        if (c == '\n' || c == '\r') return e;  // a CR here cannot be the first half of a CRLF
        --e;
    }
    return 0;
}

// Lines with their terminators.
void split_with_terminators(std::string_view x, std::vector<std::string_view>& out) {
    for_each_line(x, [&](const LineSpan& s) {
        out.push_back(x.substr(s.begin, s.end - s.begin + s.terminator_size));
        return true;
    });
}

std::string_view without_terminator(std::string_view line) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

bool has_terminator(std::string_view line) { return !line.empty() && (line.back() == '\n' || line.back() == '\r'); }

std::string header_path(std::string_view marker, std::string_view side, std::string_view path) {
    while (!path.empty() && path.front() == '/') path.remove_prefix(1);
    return std::string(marker) + quote_path(side, path);
}

struct Op {
    LineOp op;
    std::string_view line;  // with terminator
    std::size_t old_line;   // 1-based: the old line (common/remove) or the one after (add)
    std::size_t new_line;   // 1-based: the new line (common/add) or the one after (remove)
};

// Appends to the text up to the cap, counting what is left out.
struct Writer {
    std::string& text;
    std::size_t cap;  // 0 = none
    bool cut = false;
    std::size_t cut_lines = 0;
    std::size_t cut_bytes = 0;

    void line(std::string_view s) {
        if (!cut && (cap == 0 || text.size() + s.size() + 1 <= cap)) {
            text.append(s);
            text += '\n';
            return;
        }
        cut = true;
        ++cut_lines;
        cut_bytes += s.size() + 1;
    }
};

// A line longer than this is shown as a window around its changed bytes (or its start, for a
// line that did not change), so that a change inside one huge line shows what changed.
constexpr std::size_t kLongLine = 2048;
constexpr std::size_t kWindowContext = 160;  // bytes shown before and after the change
constexpr std::size_t kMaxWindow = 1024;     // bytes of the line shown at most

// `line` (no terminator) starts at `line_offset` of its side's bytes, whose changed bytes are
// [change_begin, change_end). A long line is cut to a window, with how much was left out on each side.
std::string windowed_diff_line(std::string_view line, std::size_t line_offset, std::size_t change_begin,
                               std::size_t change_end, bool& cut) {
    if (line.size() <= kLongLine) return to_valid_utf8(line);
    cut = true;
    std::size_t from = 0, to = kMaxWindow;
    const std::size_t line_end = line_offset + line.size();
    if (change_begin < line_end && change_end >= line_offset) {  // the change touches this line
        const std::size_t b = change_begin > line_offset ? change_begin - line_offset : 0;
        from = b > kWindowContext ? b - kWindowContext : 0;
        const std::size_t e = std::min(line.size(), std::max(change_end, change_begin) - line_offset);
        to = std::min(from + kMaxWindow, e + kWindowContext);
    }
    to = std::min(to, line.size());
    // Whole characters only (bounded: a UTF-8 sequence has at most 3 continuation bytes).
    from = utf8_floor(line, from, 0, 3);
    to = utf8_ceil(line, to, 3);
    std::string out;
    if (from > 0) out += "[\u2026 " + std::to_string(from) + " bytes of this line not shown] ";
    out += to_valid_utf8(line.substr(from, to - from));
    if (to < line.size()) out += " [\u2026 " + std::to_string(line.size() - to) + " more bytes of this line not shown]";
    return out;
}

// Lines mean nothing in a binary file: git's line, as `git diff` shows one.
UnifiedDiff binary_diff(const DiffOptions& options) {
    UnifiedDiff result;
    result.text =
        "Binary files " + (options.old_missing ? std::string("/dev/null") : header_path("", "a/", options.old_path)) +
        " and " +
        (options.new_missing ? std::string("/dev/null")
                             : header_path("", "b/", options.new_path.empty() ? options.old_path : options.new_path)) +
        " differ\n";
    return result;
}

bool has_nul(std::string_view bytes) { return bytes.find('\0') != std::string_view::npos; }

// The diff of two texts (no NUL byte in either) that are a window of two files: `lines_above`
// lines of both files come before it (the numbers shown count them).
UnifiedDiff diff_of_window(std::string_view old_bytes, std::string_view new_bytes, const DiffOptions& options,
                           std::size_t lines_above) {
    UnifiedDiff result;
    const bool same = old_bytes == new_bytes;
    if (same && !options.old_missing && !options.new_missing) return result;

    // The window: whole lines around the bytes that differ.
    std::size_t start = 0, old_end = old_bytes.size(), new_end = new_bytes.size();
    // The bytes that differ: [change_begin, *_change_end) of each side (for long lines, see windowed_diff_line).
    std::size_t change_begin = 0, old_change_end = old_bytes.size(), new_change_end = new_bytes.size();
    // Lines appended to a file whose last line had no newline (or the reverse): that line gains
    // (loses) its newline. Its unterminated form would pair with the new last line when that line
    // has the same text (a closing `}`), showing the append as an insertion before the last line;
    // so the window runs to the end and the last line shows as changed.
    bool completes_last_line = false;
    if (!same) {
        const std::size_t p = common_prefix(old_bytes, new_bytes);
        change_begin = p;
        const auto unterminated = [](std::string_view x) { return !x.empty() && x.back() != '\n' && x.back() != '\r'; };
        completes_last_line =
            (p == old_bytes.size() && unterminated(old_bytes)) || (p == new_bytes.size() && unterminated(new_bytes));
        start = p;
        const bool boundary = p == 0 || old_bytes[p - 1] == '\n' ||
                              (old_bytes[p - 1] == '\r' && (p >= old_bytes.size() || old_bytes[p] != '\n') &&
                               (p >= new_bytes.size() || new_bytes[p] != '\n'));
        if (!boundary) {
            // Back to the start of the line holding p-1; bytes before p are the same on both sides.
            start = p - 1;
            while (start > 0) {
                const char c = old_bytes[start - 1];
                if (c == '\n' || (c == '\r' && old_bytes[start] != '\n')) break;
                --start;
            }
        }
        const std::size_t s = completes_last_line ? 0
                                                  : common_suffix(old_bytes, new_bytes,
                                                                  std::min(old_bytes.size(), new_bytes.size()) - start);
        old_end = old_bytes.size() - s;
        new_end = new_bytes.size() - s;
        old_change_end = old_end;
        new_change_end = new_end;
        // Forward to a line start inside the common suffix (or the end).
        const bool at_start = line_starts_at(old_bytes, old_end) && line_starts_at(new_bytes, new_end);
        if (!at_start) {
            while (old_end < old_bytes.size()) {
                ++old_end;
                ++new_end;
                if (line_starts_at(old_bytes, old_end)) break;
            }
        }
    }

    std::vector<std::string_view> old_lines, new_lines;
    split_with_terminators(old_bytes.substr(start, old_end - start), old_lines);
    split_with_terminators(new_bytes.substr(start, new_end - start), new_lines);
    std::vector<LineEdit> edits;
    if (completes_last_line) {
        for (std::size_t i = 0; i < old_lines.size(); ++i) edits.push_back({LineOp::remove, i, 0});
        for (std::size_t j = 0; j < new_lines.size(); ++j) edits.push_back({LineOp::add, old_lines.size(), j});
    } else {
        edits = diff_lines(old_lines, new_lines);
    }

    // Context before and after, taken from the unchanged text.
    const std::size_t first_line = 1 + lines_above + (start ? lines_before(old_bytes, start) : 0);
    std::vector<std::string_view> before;
    for (std::size_t at = start; at > 0 && before.size() < options.context;) {
        const std::size_t b = previous_line_start(old_bytes, at);
        before.push_back(old_bytes.substr(b, at - b));
        at = b;
    }
    std::reverse(before.begin(), before.end());
    std::vector<std::string_view> after;
    for_each_line(old_bytes.substr(old_end), [&](const LineSpan& sp) {
        if (after.size() >= options.context) return false;
        after.push_back(old_bytes.substr(old_end + sp.begin, sp.end - sp.begin + sp.terminator_size));
        return true;
    });

    std::vector<Op> ops;
    ops.reserve(before.size() + edits.size() + after.size());
    const std::size_t window_old = first_line, window_new = first_line;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const std::size_t n = first_line - before.size() + i;
        ops.push_back({LineOp::common, before[i], n, n});
    }
    for (const LineEdit& e : edits) {
        const std::string_view line = e.op == LineOp::add ? new_lines[e.new_index] : old_lines[e.old_index];
        ops.push_back({e.op, line, window_old + e.old_index, window_new + e.new_index});
    }
    const std::size_t after_old = window_old + old_lines.size(), after_new = window_new + new_lines.size();
    for (std::size_t i = 0; i < after.size(); ++i)
        ops.push_back({LineOp::common, after[i], after_old + i, after_new + i});

    for (const Op& op : ops) {
        if (op.op == LineOp::add) ++result.additions;
        if (op.op == LineOp::remove) ++result.removals;
        if (op.op != LineOp::common && result.first_changed_line == 0) result.first_changed_line = op.new_line;
    }

    Writer w{result.text, options.max_bytes};
    w.line(options.old_missing ? std::string("--- /dev/null") : header_path("--- ", "a/", options.old_path));
    w.line(options.new_missing
               ? std::string("+++ /dev/null")
               : header_path("+++ ", "b/", options.new_path.empty() ? options.old_path : options.new_path));

    // Hunks: changes closer than 2*context common lines share one.
    const std::size_t c = options.context;
    std::size_t i = 0;
    while (i < ops.size()) {
        if (ops[i].op == LineOp::common) {
            ++i;
            continue;
        }
        const std::size_t first_change = i;
        std::size_t last_change = i;
        std::size_t j = i + 1;
        while (j < ops.size()) {
            if (ops[j].op != LineOp::common) {
                last_change = j;
                ++j;
                continue;
            }
            std::size_t k = j;
            while (k < ops.size() && ops[k].op == LineOp::common) ++k;
            if (k < ops.size() && k - j <= 2 * c) {
                j = k;
                continue;
            }
            break;
        }
        const std::size_t hb = first_change >= c ? first_change - c : 0;
        const std::size_t he = std::min(ops.size(), last_change + 1 + c);
        std::size_t old_count = 0, new_count = 0;
        for (std::size_t x = hb; x < he; ++x) {
            if (ops[x].op != LineOp::add) ++old_count;
            if (ops[x].op != LineOp::remove) ++new_count;
        }
        const std::size_t old_start = old_count ? ops[hb].old_line : ops[hb].old_line - 1;
        const std::size_t new_start = new_count ? ops[hb].new_line : ops[hb].new_line - 1;
        // old_line of an add is the line after; the first old line shown may come later than hb.
        std::size_t first_old = old_start, first_new = new_start;
        for (std::size_t x = hb; x < he && old_count; ++x) {
            if (ops[x].op != LineOp::add) {
                first_old = ops[x].old_line;
                break;
            }
        }
        for (std::size_t x = hb; x < he && new_count; ++x) {
            if (ops[x].op != LineOp::remove) {
                first_new = ops[x].new_line;
                break;
            }
        }
        w.line("@@ -" + std::to_string(first_old) + "," + std::to_string(old_count) + " +" + std::to_string(first_new) +
               "," + std::to_string(new_count) + " @@");
        ++result.hunks;
        for (std::size_t x = hb; x < he; ++x) {
            const char mark = ops[x].op == LineOp::common ? ' ' : ops[x].op == LineOp::add ? '+' : '-';
            std::string shown(1, mark);
            // Which side's bytes the line views: added lines the new text's, the others the old's.
            const bool new_side = ops[x].op == LineOp::add;
            const std::string_view side = new_side ? new_bytes : old_bytes;
            const std::size_t offset = static_cast<std::size_t>(ops[x].line.data() - side.data());
            if (options.exact_lines) {
                std::string_view line = ops[x].line;
                if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
                shown += line;
            } else {
                shown += windowed_diff_line(without_terminator(ops[x].line), offset, change_begin,
                                            new_side ? new_change_end : old_change_end, result.truncated);
            }
            w.line(shown);
            if (!has_terminator(ops[x].line)) w.line("\\ No newline at end of file");
        }
        i = he;
    }

    if (w.cut) {
        result.truncated = true;
        result.text += "... diff cut here: " + std::to_string(w.cut_lines) +
                       (w.cut_lines == 1 ? " more line (" : " more lines (") + std::to_string(w.cut_bytes) +
                       " bytes) not shown\n";
    }
    return result;
}

}  // namespace

UnifiedDiff unified_diff(std::string_view old_bytes, std::string_view new_bytes, const DiffOptions& options) {
    if (old_bytes == new_bytes && !options.old_missing && !options.new_missing) return {};
    if (has_nul(old_bytes) || has_nul(new_bytes)) return binary_diff(options);
    return diff_of_window(old_bytes, new_bytes, options, 0);
}

UnifiedDiff unified_diff(std::string_view old_bytes, const SplicedBytes& change, const DiffOptions& options) {
    if (change.changes_nothing(old_bytes) && !options.old_missing && !options.new_missing) return {};
    if (has_nul(old_bytes) || has_nul(change.with)) return binary_diff(options);
    // The window: whole lines from `context` + 1 lines before the replaced span to as many after
    // it. Its edges then lie in bytes both sides share (a CR before the span cannot pair with an
    // LF it brings), so the window's diff is the files' diff, its lines numbered from lines_above.
    // In a run of equal lines the diff places the change where the bytes first differ, which can lie
    // past the span (and a shrinking change then ends that much further on): the window holds that too.
    const std::size_t span_end = change.at + change.replaced;
    std::size_t begin = change.at;
    while (begin > 0 && !line_starts_at(old_bytes, begin)) --begin;
    for (std::size_t k = 0; k <= options.context && begin > 0; ++k) begin = previous_line_start(old_bytes, begin);
    ByteParts after_span;
    after_span.parts = {std::string_view(change.with), old_bytes.substr(span_end)};
    after_span.count = 2;
    const std::size_t first_difference = change.at + common_prefix(old_bytes.substr(change.at), after_span);
    const std::size_t shrink = change.replaced > change.with.size() ? change.replaced - change.with.size() : 0;
    std::size_t end = std::min(old_bytes.size(), std::max(span_end, first_difference + shrink));
    while (end < old_bytes.size() && !line_starts_at(old_bytes, end)) ++end;
    std::size_t more = options.context + 1;
    for_each_line(old_bytes.substr(end), [&](const LineSpan& line) {
        if (more == 0) return false;
        --more;
        end += line.end - line.begin + line.terminator_size;
        return true;
    });
    std::string new_window;
    new_window.reserve(change.at - begin + change.with.size() + (end - span_end));
    new_window.append(old_bytes.substr(begin, change.at - begin));
    new_window += change.with;
    new_window.append(old_bytes.substr(span_end, end - span_end));
    return diff_of_window(old_bytes.substr(begin, end - begin), new_window, options,
                          begin ? lines_before(old_bytes, begin) : 0);
}

}  // namespace text
