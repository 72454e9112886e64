// The "not found" explanation: anchor on the needle's most distinctive lines (or words) with linear
// searches, score the candidate windows line by line, then describe the best one's differences.
#include "text/match/near_miss.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "text/bytes/byte_search.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/match/line_mismatch.hpp"
#include "text/diff/line_edit_script.hpp"
#include "text/match/line_likeness.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/match_messages.hpp"
#include "text/match/normalized_view.hpp"

namespace text {

namespace {

constexpr std::size_t kMaxProbes = 6;
constexpr std::size_t kMaxWordProbes = 16;  // words are short: more of them are tried
constexpr std::size_t kMinWordBytes = 3;
constexpr std::size_t kHitsPerProbe = 64;
constexpr std::size_t kScoredLines = 200;
constexpr std::size_t kDescribedLines = 6;
constexpr std::size_t kShownBytes = 200;
constexpr std::size_t kAlignedLines = 1000;  // old_string lines up to which the region is aligned
constexpr std::size_t kSlackLines = 3;       // region lines read past old_string's count, for lines it left out

struct Hit {
    std::size_t pos = 0;
    std::size_t needle_line = 0;
    bool operator<(const Hit& o) const { return pos != o.pos ? pos < o.pos : needle_line < o.needle_line; }
    bool operator==(const Hit& o) const = default;
};

struct Probe {
    std::string_view text;
    std::size_t needle_line = 0;
};

// Searches the longest kMaxProbes distinct probes, and more (up to `max_probes`) while none was
// found; returns those searched, longest first.
std::vector<std::string_view> search_probes(std::string_view lf, std::vector<Probe> probes, std::vector<Hit>& hits,
                                            std::size_t max_probes = kMaxProbes) {
    std::stable_sort(probes.begin(), probes.end(),
                     [](const Probe& a, const Probe& b) { return a.text.size() > b.text.size(); });
    std::vector<std::string_view> used;
    for (const Probe& p : probes) {
        if (used.size() >= max_probes || (used.size() >= kMaxProbes && !hits.empty())) break;
        if (std::find(used.begin(), used.end(), p.text) != used.end()) continue;
        used.push_back(p.text);
        std::size_t from = 0;
        for (std::size_t c = 0; c < kHitsPerProbe; ++c) {
            const std::size_t at = find_bytes(lf, p.text, from);
            if (at == std::string_view::npos) break;
            hits.push_back({at, p.needle_line});
            from = at + p.text.size();
        }
    }
    return used;
}

bool is_word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

NearMiss explain_not_found(std::string_view lf, std::string_view needle, std::string_view old_name) {
    const std::string name(old_name);
    NearMiss out;
    std::string& m = out.message;
    m = name +
        " was not found in the file, not even with trailing whitespace, Unicode forms (NFKC), typographic "
        "quotes, dashes and spaces, indentation or read line-number prefixes tolerated.";
    if (lf.empty()) {
        m += " The file is empty: use write to give it content, or insert to add lines.";
        return out;
    }
    const LfLines needle_lines = split_lf_lines(needle);
    const std::vector<std::string_view>& lines = needle_lines.lines;
    const bool ends_with_newline = needle_lines.ends_with_newline;
    const std::size_t k = lines.size();

    // 1. Where the needle's most distinctive lines, or else its longest words, occur.
    std::vector<Hit> hits;
    {
        std::vector<Probe> probes;
        for (std::size_t j = 0; j < k; ++j) {
            const std::string_view core = trim_blanks(lines[j]);
            if (core.size() >= (k == 1 ? 2u : 3u)) probes.push_back({core, j});
        }
        search_probes(lf, probes, hits);
    }
    std::vector<std::string_view> words_searched;
    if (hits.empty()) {
        std::vector<Probe> probes;
        for (std::size_t j = 0; j < k; ++j) {
            const std::string_view l = lines[j];
            for (std::size_t i = 0; i < l.size();) {
                if (!is_word_byte(l[i])) {
                    ++i;
                    continue;
                }
                std::size_t e = i;
                while (e < l.size() && is_word_byte(l[e])) ++e;
                if (e - i >= kMinWordBytes) probes.push_back({l.substr(i, e - i), j});
                i = e;
            }
        }
        words_searched = search_probes(lf, probes, hits, kMaxWordProbes);
    }
    if (hits.empty()) {
        std::size_t longest = 0;
        for (std::size_t j = 1; j < k; ++j) {
            if (trim_blanks(lines[j]).size() > trim_blanks(lines[longest]).size()) longest = j;
        }
        if (const auto pos = most_similar_line(lf, trim_blanks(lines[longest]))) hits.push_back({*pos, longest});
    }
    if (hits.empty()) {
        // Say what was searched, not more: shorter lines and words may well occur.
        m += " No part of the file resembles it: the file has none of its lines";
        if (!words_searched.empty()) {
            m += ", none of the words ";
            for (std::size_t i = 0; i < words_searched.size(); ++i) {
                m += (i == 0                           ? ""
                      : i + 1 == words_searched.size() ? " and "
                                                       : ", ") +
                     std::string(1, '"') + std::string(words_searched[i]) + '"';
            }
        }
        m += ", and no line like its longest one. Next: read the file to see its current text, then retry with " +
             name + " copied from it.";
        return out;
    }

    // 2. Candidate windows: where the needle would start if that hit were its line.
    std::sort(hits.begin(), hits.end());
    hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
    struct Window {
        std::size_t line = 1;    // 1-based
        std::size_t offset = 0;  // of that line in lf
        bool operator<(const Window& o) const { return line < o.line; }
    };
    std::vector<Window> windows;
    {
        // Hits are sorted: line numbers and line starts advance with one forward pass in all.
        std::size_t at = 0, line = 1, line_start = 0;
        for (const Hit& h : hits) {
            for (std::size_t i = at; i < h.pos; ++i) {
                if (lf[i] == '\n') {
                    ++line;
                    line_start = i + 1;
                }
            }
            at = h.pos;
            std::size_t start = line_start;
            std::size_t steps = 0;
            while (steps < h.needle_line && start > 0) {
                start = start >= 2 ? lf.rfind('\n', start - 2) + 1 : 0;
                ++steps;
            }
            windows.push_back({line - steps, start});
        }
        std::sort(windows.begin(), windows.end());
        windows.erase(std::unique(windows.begin(), windows.end(),
                                  [](const Window& a, const Window& b) { return a.line == b.line; }),
                      windows.end());
    }

    // 3. The window most like the needle.
    const std::size_t scored = std::min(k, kScoredLines);
    double best_score = -1.0;
    Window best;
    for (const Window& w : windows) {
        LineCursor cursor{lf, w.offset};
        double score = 0.0;
        std::string_view line;
        for (std::size_t t = 0; t < scored && cursor.next(line); ++t) score += line_likeness(line, lines[t]);
        if (score > best_score) {
            best_score = score;
            best = w;
        }
    }

    // 4. What differs there: old_string's lines aligned with the region's (diff_lines), so that a
    // line left out of old_string is named as missing, not shown as every later line differing.
    struct Difference {
        std::size_t line = 0;
        std::string how;
        std::optional<std::string_view> file_line;
        std::optional<std::string_view> needle_line;
        std::optional<std::string_view> continued;  // the file's next line, when it breaks the line there
        std::size_t show_from = 0;                  // both lines are shown from here (far differences in long lines)
    };
    std::vector<Difference> differences;
    std::size_t identical = 0, different = 0;
    bool reaches_end = false;  // the region's last line is the file's last line
    std::size_t last = best.line;
    {
        std::vector<std::string_view> region;
        LineCursor cursor{lf, best.offset};
        std::string_view line;
        const std::size_t wanted = k <= kAlignedLines ? k + kSlackLines : k;
        while (region.size() < wanted && cursor.next(line)) region.push_back(line);
        std::vector<LineEdit> script;
        if (k <= kAlignedLines) {
            script = diff_lines(lines, region);
        } else {  // too long to align: line by line, by position
            for (std::size_t t = 0; t < k; ++t) {
                if (t < region.size()) {
                    script.push_back({lines[t] == region[t] ? LineOp::common : LineOp::remove, t, t});
                    if (lines[t] != region[t]) script.push_back({LineOp::add, t + 1, t});
                } else {
                    script.push_back({LineOp::remove, t, region.size()});
                }
            }
        }
        // The last region line that old_string's lines reach: later ones are past the region.
        std::size_t reach = 0;             // one past it
        std::vector<std::size_t> removed;  // needle lines of the current run of changes
        std::vector<std::size_t> added;    // region lines of the current run
        auto note = [&](Difference d) {
            ++different;
            if (differences.size() < kDescribedLines) differences.push_back(std::move(d));
        };
        auto flush = [&](bool at_end) {
            const std::size_t paired = std::min(removed.size(), added.size());
            std::size_t r = 0, a = 0;
            while (r < removed.size() || a < added.size()) {
                if (r < paired && a < paired) {
                    const std::size_t t = removed[r++];
                    const std::size_t f = added[a++];
                    const std::string_view fl = region[f];
                    reach = std::max(reach, f + 1);
                    const bool same = (t == 0 && k > 1 && fl.ends_with(lines[t])) ||
                                      (t + 1 == k && !ends_with_newline && k > 1 && fl.starts_with(lines[t]));
                    if (same) {
                        ++identical;
                        continue;
                    }
                    Difference d;
                    d.line = best.line + f;
                    d.needle_line = lines[t];
                    d.file_line = fl;
                    // The file breaks the line where old_string does not: its next line goes on
                    // with the rest of old_string's line.
                    const std::string_view head = rtrim_blanks(fl);
                    if (f + 1 < region.size() && !head.empty() && head.size() < lines[t].size() &&
                        lines[t].starts_with(head)) {
                        const std::string_view rest = trim_blanks(lines[t].substr(head.size()));
                        const std::string_view next = trim_blanks(region[f + 1]);
                        if (!next.empty() && rest.starts_with(next)) {
                            d.continued = region[f + 1];
                            d.how = "the file breaks this line after column " + std::to_string(head.size()) +
                                    " and goes on in line " + std::to_string(d.line + 1) + ", where " + name +
                                    " has one line";
                            reach = std::max(reach, f + 2);
                            note(std::move(d));
                            continue;
                        }
                    }
                    d.how = describe_difference(fl, lines[t], name);
                    std::size_t first = 0;
                    while (first < fl.size() && first < lines[t].size() && fl[first] == lines[t][first]) ++first;
                    if (first > kShownBytes - 40) d.show_from = utf8_floor(fl, first - 60);
                    note(std::move(d));
                } else if (a < added.size()) {
                    const std::size_t f = added[a++];
                    if (at_end && r >= removed.size()) continue;  // past old_string's end: not its region
                    reach = std::max(reach, f + 1);
                    Difference d;
                    d.line = best.line + f;
                    d.file_line = region[f];
                    d.how = "this line of the file is missing from " + name + " (between the lines around it)";
                    note(std::move(d));
                } else {
                    const std::size_t t = removed[r++];
                    Difference d;
                    d.line = best.line + std::min(reach, region.size());
                    d.needle_line = lines[t];
                    d.how = reach >= region.size() && region.size() < wanted
                                ? "the file ends before this line of " + name
                                : "this line of " + name + " is not in the file here";
                    note(std::move(d));
                }
            }
            removed.clear();
            added.clear();
        };
        for (const LineEdit& e : script) {
            if (e.op == LineOp::common) {
                flush(false);
                ++identical;
                reach = std::max(reach, e.new_index + 1);
            } else if (e.op == LineOp::remove) {
                removed.push_back(e.old_index);
            } else {
                added.push_back(e.new_index);
            }
        }
        flush(true);
        if (reach == 0) reach = std::min<std::size_t>(1, region.size());
        last = best.line + (reach ? reach - 1 : 0);
        std::sort(differences.begin(), differences.end(),
                  [](const Difference& a, const Difference& b) { return a.line < b.line; });
        LineCursor to_end{lf, best.offset};
        for (std::size_t n = 0; n < reach && to_end.next(line); ++n) {}
        reaches_end = to_end.position() >= lf.size();
    }
    out.region = LineRange{best.line, last};

    m += " The closest region is " + lines_words(best.line, last) + " (" + std::to_string(identical) + " of " +
         std::to_string(k) + (k == 1 ? " line" : " lines") + " identical";
    if (best_score < 0.5 * static_cast<double>(scored)) m += ", only loosely similar";
    m += ").";
    if (differences.empty()) {
        if (ends_with_newline && reaches_end && lf.back() != '\n') {
            m += " " + name +
                 " ends with a newline, but the file's last line has none: drop the final newline "
                 "from " +
                 name + ".";
        } else {
            m += " Its lines differ from " + name + " only in where " + name + " starts or ends within them.";
        }
    } else {
        m += " Whitespace is shown as \u2192 for a tab and \u00B7 for a leading or trailing space:";
        const std::size_t width = std::max<std::size_t>(name.size(), 4) + 1;
        auto label = [&](std::string_view what) {
            std::string l = "    " + std::string(what) + ":";
            l.append(width - what.size(), ' ');
            return l;
        };
        for (const Difference& d : differences) {
            m += "\n  line " + std::to_string(d.line) + ": " + d.how;
            if (d.file_line) m += "\n" + label("file") + render_visible(*d.file_line, d.show_from, kShownBytes);
            if (d.continued)
                m += "\n" + std::string(5 + width, ' ') + render_visible(*d.continued, d.show_from, kShownBytes);
            if (d.needle_line) m += "\n" + label(name) + render_visible(*d.needle_line, d.show_from, kShownBytes);
        }
        if (different > differences.size()) {
            m += "\n  ... and " + std::to_string(different - differences.size()) + " more " +
                 (different - differences.size() == 1 ? "line differs." : "lines differ.");
        }
    }
    m += "\nNext: read " + lines_words(best.line, last) + " (read with offset " + std::to_string(best.line) +
         " and limit " + std::to_string(last - best.line + 1) + ") and retry with " + name +
         " copied exactly from there, without the line-number prefixes that read adds.";
    return out;
}

}  // namespace text
