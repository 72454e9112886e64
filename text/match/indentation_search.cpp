// One indentation search for both rules: candidates are the file's lines whose text after the
// indentation is the needle's first non-empty line's; each rule only says which shift (if any)
// turns the needle's lines into the file's there, and the places of both rules are one tier.
#include "text/match/indentation_search.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace text {

namespace {

std::size_t indent_width(std::string_view line, std::size_t tab_width) {
    std::size_t w = 0;
    for (const char c : line) {
        if (c == ' ') {
            ++w;
        } else if (c == '\t') {
            w += tab_width - w % tab_width;
        } else {
            break;
        }
    }
    return w;
}

bool indents_with_tabs(std::string_view line) { return indentation(line).find('\t') != std::string_view::npos; }

std::optional<IndentShift> shift_between(std::string_view file_line, std::string_view needle_line) {
    auto all_indent = [](std::string_view s) { return std::all_of(s.begin(), s.end(), is_indent_byte); };
    if (file_line.size() > needle_line.size()) {
        const std::size_t d = file_line.size() - needle_line.size();
        if (file_line.substr(d) == needle_line && all_indent(file_line.substr(0, d))) {
            return IndentShift{true, file_line.substr(0, d)};
        }
    } else if (needle_line.size() > file_line.size()) {
        const std::size_t d = needle_line.size() - file_line.size();
        if (needle_line.substr(d) == file_line && all_indent(needle_line.substr(0, d))) {
            return IndentShift{false, needle_line.substr(0, d)};
        }
    }
    return std::nullopt;
}

struct Needle : LfLines {
    std::size_t first = 0;  // the first non-empty line
};

// The prefix rule: every non-empty line gains (or loses) the same non-empty run of indentation.
std::optional<IndentShift> prefix_shift(const LineTable& file, const Needle& n, std::size_t start) {
    const std::optional<IndentShift> shift = shift_between(file.line(start + n.first), n.lines[n.first]);
    if (!shift || shift->prefix.empty()) return std::nullopt;
    for (std::size_t j = 0; j < n.lines.size(); ++j) {
        const std::string_view fl = file.line(start + j);
        if (n.lines[j].empty()) {
            if (!fl.empty()) return std::nullopt;
        } else {
            const std::optional<IndentShift> s = shift_between(fl, n.lines[j]);
            if (!s || !(*s == *shift)) return std::nullopt;
        }
    }
    return shift;
}

// The width rule, when one side indents with tabs and the other with spaces: the same text after
// the indentation on every line, and indentation widths that differ by one constant.
std::optional<IndentShift> width_shift(const LineTable& file, const Needle& n, std::size_t start, bool needle_tabs) {
    const std::size_t k = n.lines.size();
    bool file_tabs = false;
    for (std::size_t j = 0; j < k; ++j) {
        const std::string_view fl = file.line(start + j);
        if (n.lines[j].empty()) {
            if (!fl.empty()) return std::nullopt;
        } else {
            if (ltrim_indent(fl) != ltrim_indent(n.lines[j])) return std::nullopt;
            if (indents_with_tabs(fl)) file_tabs = true;
        }
    }
    // Exactly one side uses tabs; with the same characters on both sides the prefix rule decides.
    if (file_tabs == needle_tabs) return std::nullopt;
    const std::string_view anchor = file.line(start + n.first);
    const std::string_view first = n.lines[n.first];
    // Tab widths to try: the one that puts both sides at the same depth, then the usual ones.
    std::vector<std::size_t> widths;
    const std::string_view tab_side = indentation(file_tabs ? anchor : first);
    const std::string_view space_side = indentation(file_tabs ? first : anchor);
    const auto tabs = static_cast<std::size_t>(std::count(tab_side.begin(), tab_side.end(), '\t'));
    const std::size_t spaces = space_side.size();
    if (tabs > 0 && spaces > 0 && spaces % tabs == 0 && spaces / tabs <= 8 && tab_side.size() == tabs) {
        widths.push_back(spaces / tabs);
    }
    for (const std::size_t w : {4u, 8u, 2u}) {
        if (std::find(widths.begin(), widths.end(), w) == widths.end()) widths.push_back(w);
    }
    auto difference = [&](std::size_t j, std::size_t w) {
        return static_cast<long long>(indent_width(file.line(start + j), w)) -
               static_cast<long long>(indent_width(n.lines[j], w));
    };
    for (const std::size_t w : widths) {
        const long long delta = difference(n.first, w);
        bool same = true;
        for (std::size_t j = 0; j < k && same; ++j) {
            if (!n.lines[j].empty()) same = difference(j, w) == delta;
        }
        if (same) {
            IndentShift s;
            s.by_width = true;
            s.tab_width = w;
            s.delta = delta;
            s.file_uses_tabs = file_tabs;
            return s;
        }
    }
    return std::nullopt;
}

struct Candidate {
    std::size_t start = 0;  // the needle's line 0 is the file's line `start`
    IndentShift shift;
};

// Every start line where `shift_at` finds a shift, in file order (places may overlap here).
template <class ShiftAt>
void candidates(const LineTable& file, const Needle& n, ShiftAt&& shift_at, std::vector<Candidate>& out) {
    const std::size_t k = n.lines.size();
    const std::size_t f = n.first;
    const std::string_view core = ltrim_indent(n.lines[f]);
    const std::size_t count = file.size();
    for (std::size_t i = f; i + (k - f) <= count; ++i) {
        const std::string_view anchor = file.line(i);
        if (anchor.size() < core.size() || ltrim_indent(anchor) != core) continue;
        const std::size_t start = i - f;
        const std::optional<IndentShift> shift = shift_at(start);
        if (!shift) continue;
        const std::size_t last_end = file.end(start + k - 1);
        if (n.ends_with_newline && last_end >= file.text().size()) continue;  // the file's line has no newline
        out.push_back({start, *shift});
    }
}

}  // namespace

std::size_t find_indented(const LineTable& file, std::string_view needle, const IndentedPlaceSink& take) {
    Needle n{split_lf_lines(needle)};
    while (n.first < n.lines.size() && n.lines[n.first].empty()) ++n.first;
    if (n.first == n.lines.size()) return 0;
    // Both rules are one tier: a place found by either counts, so that a place the prefix rule
    // finds is never taken while the width rule sees another one just as good.
    std::vector<Candidate> found;
    candidates(
        file, n, [&](std::size_t start) { return prefix_shift(file, n, start); }, found);
    const bool needle_tabs = std::any_of(n.lines.begin(), n.lines.end(), indents_with_tabs);
    candidates(
        file, n, [&](std::size_t start) { return width_shift(file, n, start, needle_tabs); }, found);
    // In file order; at a start both rules fit, the prefix rule's shift (found first) is kept.
    std::stable_sort(found.begin(), found.end(),
                     [](const Candidate& a, const Candidate& b) { return a.start < b.start; });
    const std::size_t k = n.lines.size();
    std::size_t taken = 0;
    std::size_t next_free = 0;  // the first line a new place may start at (places do not overlap)
    for (const Candidate& cand : found) {
        if (cand.start < next_free) continue;
        const std::size_t last_end = file.end(cand.start + k - 1);
        if (!take(file.begin(cand.start), n.ends_with_newline ? last_end + 1 : last_end, cand.shift)) continue;
        ++taken;
        next_free = cand.start + k;
    }
    return taken;
}

std::string reindent(std::string_view text, const IndentShift& shift) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    LineCursor cursor(text);
    std::string_view line;
    while (cursor.next(line)) {
        if (shift.by_width) {
            if (!line.empty()) {
                const long long w = static_cast<long long>(indent_width(line, shift.tab_width)) + shift.delta;
                const std::size_t width = w > 0 ? static_cast<std::size_t>(w) : 0;
                line.remove_prefix(indentation(line).size());
                if (shift.file_uses_tabs) {
                    out.append(width / shift.tab_width, '\t');
                    out.append(width % shift.tab_width, ' ');
                } else {
                    out.append(width, ' ');
                }
            }
        } else if (shift.add) {
            if (!line.empty()) out += shift.prefix;  // a line of blanks is indentation too
        } else {
            std::size_t n = 0;
            while (n < shift.prefix.size() && n < line.size() && line[n] == shift.prefix[n]) ++n;
            line.remove_prefix(n);
        }
        out += line;
        if (cursor.newline()) out += '\n';
    }
    return out;
}

}  // namespace text
