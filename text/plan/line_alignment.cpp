// Laying a block's old lines onto file lines one by one (exactly with left-out lines between, or
// by similarity), and writing the block's change around the file lines it does not mention.
#include "text/plan/line_alignment.hpp"

#include <algorithm>
#include <cmath>

#include "text/match/indent_translation.hpp"
#include "text/diff/line_edit_script.hpp"
#include "text/bytes/lines.hpp"
#include "text/plan/patch_similarity.hpp"

namespace text {

namespace {

constexpr std::size_t kMaxSearchSteps = 2'000'000;  // candidate lines looked at by one gap search

bool same_line(std::string_view a, std::string_view b) { return rtrim_blanks(a) == rtrim_blanks(b); }

double line_similarity(std::string_view a, std::string_view b) {
    a = rtrim_blanks(a);
    b = rtrim_blanks(b);
    const std::size_t longest = std::max(a.size(), b.size());
    std::size_t cells = 0;
    return similarity_of(bounded_levenshtein(a, b, longest, &cells), a.size(), b.size());
}

std::string quoted(std::string_view line) {
    if (line.size() > 80) line = line.substr(0, utf8_floor(line, 80));
    return "\"" + std::string(line) + "\"";
}

}  // namespace

std::size_t LineAlignment::first() const {
    for (const std::size_t n : file_line) {
        if (n) return n;
    }
    return 0;
}

std::size_t LineAlignment::last() const {
    for (auto it = file_line.rbegin(); it != file_line.rend(); ++it) {
        if (*it) return *it;
    }
    return 0;
}

std::optional<AlignmentFailure> beside_left_out(OriginalFile& file, const std::vector<std::string_view>& added,
                                                std::size_t from, std::size_t to) {
    if (added.empty() || from == 0 || to < from || to > file.line_count()) return std::nullopt;
    std::string gap, run;
    for (std::size_t n = from; n <= to; ++n) (gap += file.line(n)) += '\n';
    for (const std::string_view line : added) (run += line) += '\n';
    if (run + gap == gap + run) return std::nullopt;
    const std::string n = std::to_string(from);
    const std::string m = std::to_string(to);
    std::string lines = from == to ? "line " + n : "lines " + n + "-" + m;
    lines += " (" + quoted(file.line(from));
    if (to > from) lines += to > from + 1 ? ", ..." : ", " + quoted(file.line(to));
    lines += ")";
    const std::string what =
        added.size() == 1 ? "its added line " + quoted(added.front()) : "its added lines from " + quoted(added.front());
    const std::string before = from == 1 ? "at the start of the file" : "after line " + std::to_string(from - 1);
    const std::string after =
        to == file.line_count() ? "at the end of the file" : "before line " + std::to_string(to + 1);
    return AlignmentFailure("it leaves out " + lines + ", and " + what + " could go before line " + n + " (" + before +
                                ") or after " + (from == to ? std::string("it") : "line " + m) + " (" + after +
                                "); nothing in it says which",
                            from, to);
}

std::vector<std::string_view> block_lines(std::string_view block_text) {
    if (block_text.empty()) return {};  // a block that removes lines only has no new lines
    return split_lf_lines(block_text).lines;
}

std::vector<LineAlignment> gap_alignments(OriginalFile& file, const std::vector<std::string_view>& old_lines,
                                          std::size_t max_gap, std::size_t limit) {
    std::vector<LineAlignment> found;
    const std::size_t k = old_lines.size();
    const std::size_t count = file.line_count();
    if (k < 2 || max_gap == 0 || limit == 0) return found;
    std::size_t steps = 0;
    LineAlignment current;
    current.file_line.assign(k, 0);
    // Depth-first: old line i goes at most `gap_left` lines past the one after old line i-1.
    auto place = [&](auto&& self, std::size_t i, std::size_t gap_used) -> void {
        if (found.size() >= limit || steps > kMaxSearchSteps) return;
        if (i == k) {
            if (gap_used > 0) found.push_back(current);
            return;
        }
        const std::size_t after = current.file_line[i - 1] + 1;
        for (std::size_t g = 0; g + gap_used <= max_gap && after + g <= count; ++g) {
            ++steps;
            if (!same_line(file.line(after + g), old_lines[i])) continue;
            current.file_line[i] = after + g;
            self(self, i + 1, gap_used + g);
            if (found.size() >= limit) return;
        }
    };
    for (std::size_t s = 1; s <= count && found.size() < limit; ++s) {
        ++steps;
        if (steps > kMaxSearchSteps) break;
        if (!same_line(file.line(s), old_lines[0])) continue;
        current.file_line[0] = s;
        place(place, 1, 0);
    }
    if (steps > kMaxSearchSteps) found.assign(limit, LineAlignment{});  // too many to tell: "many"
    return found;
}

std::pair<LineAlignment, LineAlignment> similarity_alignments(OriginalFile& file,
                                                              const std::vector<std::string_view>& old_lines,
                                                              std::size_t first, std::size_t last,
                                                              double min_line_similarity) {
    const std::size_t k = old_lines.size();
    if (first == 0 || last < first || last > file.line_count() || k == 0) {
        LineAlignment none;
        none.file_line.assign(k, 0);
        return {none, none};
    }
    const std::size_t w = last - first + 1;
    std::vector<double> sim(k * w, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        for (std::size_t j = 0; j < w; ++j) sim[i * w + j] = line_similarity(old_lines[i], file.line(first + j));
    }
    // best[i][j]: the most similarity old lines [0, i) can gather from file lines [0, j).
    std::vector<double> best((k + 1) * (w + 1), 0.0);
    auto at = [&](std::size_t i, std::size_t j) -> double& { return best[i * (w + 1) + j]; };
    for (std::size_t i = 1; i <= k; ++i) {
        for (std::size_t j = 1; j <= w; ++j) {
            double v = std::max(at(i - 1, j), at(i, j - 1));
            const double s = sim[(i - 1) * w + (j - 1)];
            if (s >= min_line_similarity) v = std::max(v, at(i - 1, j - 1) + s);
            at(i, j) = v;
        }
    }
    constexpr double kEps = 1e-9;
    // Two walks back that settle every tie the opposite ways: if they agree, the best is unique.
    auto walk = [&](bool prefer_match) {
        LineAlignment a;
        a.file_line.assign(k, 0);
        std::size_t i = k, j = w;
        while (i > 0 && j > 0) {
            const double s = sim[(i - 1) * w + (j - 1)];
            const bool can_match = s >= min_line_similarity && std::fabs(at(i - 1, j - 1) + s - at(i, j)) < kEps;
            const bool can_skip_file = std::fabs(at(i, j - 1) - at(i, j)) < kEps;
            if (can_match && (prefer_match || !can_skip_file)) {
                const bool can_skip_old = std::fabs(at(i - 1, j) - at(i, j)) < kEps;
                if (prefer_match || !can_skip_old) {
                    a.file_line[i - 1] = first + j - 1;
                    --i;
                    --j;
                    continue;
                }
            }
            if (can_skip_file) {
                --j;
            } else {
                --i;
            }
        }
        return a;
    };
    return {walk(true), walk(false)};
}

bool same_change(OriginalFile& file, const AlignedChange& a, const AlignedChange& b) {
    const std::size_t first = std::min(a.first_line, b.first_line);
    const std::size_t last = std::max(a.last_line, b.last_line);
    auto rendered = [&](const AlignedChange& c) {
        std::string out;
        for (std::size_t n = first; n < c.first_line; ++n) (out += file.line(n)) += '\n';
        out += c.text;
        for (std::size_t n = c.last_line + 1; n <= last; ++n) (out += file.line(n)) += '\n';
        return out;
    };
    return rendered(a) == rendered(b);
}

base::Result<AlignedChange, AlignmentFailure> apply_alignment(OriginalFile& file,
                                                              const std::vector<std::string_view>& old_lines,
                                                              const std::vector<std::string_view>& new_lines,
                                                              const LineAlignment& alignment, std::string_view ops) {
    const std::size_t first = alignment.first();
    const std::size_t last = alignment.last();
    if (first == 0) return base::fail(AlignmentFailure{"none of its old lines was found in the file"});
    std::vector<LineEdit> edits;
    const bool ops_given = !ops.empty();
    if (ops_given) {
        std::size_t o = 0, n = 0;
        for (const char op : ops) {
            if (op == '+') {
                edits.push_back({LineOp::add, o, n++});
            } else if (op == '-') {
                edits.push_back({LineOp::remove, o++, n});
            } else {
                edits.push_back({LineOp::common, o++, n++});
            }
        }
        if (o != old_lines.size() || n != new_lines.size())
            return base::fail(AlignmentFailure{"its lines do not add up"});
    } else {
        edits = diff_lines(old_lines, new_lines);
    }
    // The file line of the next old line at or after edit e that has one (last + 1 when none).
    std::vector<std::size_t> next_placed(edits.size() + 1, last + 1);
    for (std::size_t e = edits.size(); e-- > 0;) {
        next_placed[e] = next_placed[e + 1];
        if (edits[e].op != LineOp::add && alignment.file_line[edits[e].old_index]) {
            next_placed[e] = alignment.file_line[edits[e].old_index];
        }
    }
    // When the block is indented otherwise than the file (similarity placement), added lines are
    // moved to the file's indentation, known from the lines the old ones were laid onto.
    IndentTranslation indents;
    for (std::size_t i = 0; i < old_lines.size(); ++i) {
        if (alignment.file_line[i]) indents.learn(old_lines[i], file.line(alignment.file_line[i]));
    }
    bool census_read = false;              // indents has read the file's indentations
    std::vector<std::size_t> run_removed;  // the old lines removed in the current run of changes
    std::size_t run_added = 0;
    AlignedChange out;
    out.first_line = first;
    out.last_line = last;
    std::size_t next_file = first;  // the next file line not yet written or dropped
    auto keep_until = [&](std::size_t n) {
        for (; next_file < n; ++next_file) {
            out.text += file.line(next_file);
            out.text += '\n';
        }
    };
    bool after_removal = false;
    bool kept_inside_removals = false;  // this run of removed lines has a file line kept inside it
    for (std::size_t e = 0; e < edits.size(); ++e) {
        const LineEdit& edit = edits[e];
        if (edit.op == LineOp::add) {
            if (kept_inside_removals) {
                return base::fail(AlignmentFailure{
                    "its removed lines have file lines it does not show between them, and whether the added line " +
                    quoted(new_lines[edit.new_index]) + " goes before or after those cannot be told"});
            }
            // Unmentioned file lines between here and the next placed line: the added line could
            // belong on either side of them, unless the block's own lines pin it on both sides. After
            // removed lines it is pinned when a removed line follows (in a hunk's order the next run
            // of changes starts after the gap: removed lines come first in a run) or a context line
            // found nowhere (the block's own line stands there); not when placed context follows,
            // even one for one with the removed lines: "-a +A" beside a left-out line is also what
            // moving A past that line looks like.
            if (next_file > first && next_placed[e] > next_file) {
                bool unpinned = !after_removal;
                if (after_removal) {
                    std::size_t f = e;
                    while (f < edits.size() && edits[f].op == LineOp::add) ++f;
                    // (Without ops the order is diff_lines', not the caller's: a removed line
                    // after added ones says nothing there.)
                    unpinned =
                        f < edits.size() &&
                        (edits[f].op == LineOp::common ? alignment.file_line[edits[f].old_index] != 0 : !ops_given);
                }
                if (unpinned) {
                    std::vector<std::string_view> run;  // this run of added lines, from here on
                    for (std::size_t f = e; f < edits.size() && edits[f].op == LineOp::add; ++f) {
                        run.push_back(new_lines[edits[f].new_index]);
                    }
                    if (auto failure = beside_left_out(file, run, next_file, next_placed[e] - 1)) {
                        return base::fail(std::move(*failure));
                    }
                }
            }
            const std::string_view line = new_lines[edit.new_index];
            if (indents.shifted() && !indentation(line).empty()) {
                std::optional<std::string_view> rewritten_old, rewritten_file;
                if (run_added < run_removed.size()) {
                    rewritten_old = old_lines[run_removed[run_added]];
                    rewritten_file = file.line(alignment.file_line[run_removed[run_added]]);
                }
                const IndentTranslation::Lookup found = indents.find(indentation(line), rewritten_old, rewritten_file);
                const bool from_rewritten_line =
                    found.indent && rewritten_old && indentation(*rewritten_old) == indentation(line);
                if (found.indent && !from_rewritten_line && *found.indent != indentation(line)) {
                    // The caller's blanks may also be meant as they are, when the file has lines
                    // indented exactly so: then which is meant cannot be told.
                    if (!census_read) {
                        std::string all;
                        for (std::size_t n = 1; n <= file.line_count(); ++n) (all += file.line(n)) += '\n';
                        indents.read_file_indents(all);
                        census_read = true;
                    }
                    if (indents.in_file(indentation(line))) {
                        return base::fail(AlignmentFailure{
                            "it is indented otherwise than the file, and the added line " + quoted(line) +
                            " is indented in a way the file also uses, so whether to keep or change its indentation "
                            "cannot be told"});
                    }
                }
                if (!found.indent) {
                    return base::fail(
                        AlignmentFailure{"it is indented otherwise than the file, and which indentation "
                                         "the added line " +
                                         quoted(line) + " should have there cannot be told"});
                }
                out.text += *found.indent;
                out.text += line.substr(indentation(line).size());
            } else {
                out.text += line;
            }
            ++run_added;
            out.text += '\n';
            continue;
        }
        const std::size_t at = alignment.file_line[edit.old_index];
        if (edit.op == LineOp::remove) {
            if (!at) {
                return base::fail(
                    AlignmentFailure{"its removed line " + quoted(old_lines[edit.old_index]) + " is not in the file"});
            }
            if (!ops_given && after_removal && at > next_file) kept_inside_removals = true;
            if (!after_removal || run_added > 0) {
                run_removed.clear();
                run_added = 0;
            }
            run_removed.push_back(edit.old_index);
            keep_until(at);
            next_file = at + 1;
            after_removal = true;
            continue;
        }
        after_removal = false;
        kept_inside_removals = false;
        run_removed.clear();
        run_added = 0;
        if (!at) continue;  // a context line found nowhere: nothing to keep
        keep_until(at + 1);
    }
    keep_until(last + 1);
    return out;
}

}  // namespace text
