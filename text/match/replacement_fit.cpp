// new_string fitted to a tolerant match line by line: unchanged lines are copied from the file,
// changed lines take the file's indentation (learned from the matched lines) and typography.
#include "text/match/replacement_fit.hpp"

#include <optional>
#include <vector>

#include "text/match/indent_translation.hpp"
#include "text/diff/line_edit_script.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/typography_transfer.hpp"

namespace text {

namespace {

// `s` cut at every "\n": k newlines give k + 1 pieces (the last one empty after a final newline).
std::vector<std::string_view> pieces(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t from = 0;
    while (true) {
        const std::size_t nl = s.find('\n', from);
        if (nl == std::string_view::npos) {
            out.push_back(s.substr(from));
            return out;
        }
        out.push_back(s.substr(from, nl - from));
        from = nl + 1;
    }
}

// A line's indentation; a line of blanks only is all indentation.
std::string_view indent_of(std::string_view line) { return indentation(line); }

// Whether `indent` is already written the way the file indents (the caller used the other kind).
bool in_file_style(std::string_view indent, const IndentShift& shift) {
    if (!shift.by_width || indent.empty()) return false;
    const bool has_tab = indent.find('\t') != std::string_view::npos;
    return shift.file_uses_tabs ? has_tab : !has_tab;
}

// The last line of `written` (new text so far, "\n" newlines) that has visible text.
std::string_view previous_visible(std::string_view written) {
    while (!written.empty()) {
        const std::size_t nl = written.rfind('\n');
        const std::string_view line = nl == std::string_view::npos ? written : written.substr(nl + 1);
        if (has_visible_text(line)) return line;
        if (nl == std::string_view::npos) break;
        written = written.substr(0, nl);
    }
    return {};
}

}  // namespace

base::Result<std::string, FitProblem> fit_replacement(const FitRequest& request) {
    const std::vector<std::string_view> old_lines = pieces(request.needle);
    const std::vector<std::string_view> file_lines = pieces(request.region);
    const bool folded_only = request.folded && !request.shift;
    std::string typed;  // new_string with the file's typography (folded matches without a shift)
    if (folded_only) typed = keep_file_typography(request.needle, request.region, request.replacement);
    if (old_lines.size() != file_lines.size()) {
        if (request.shift) return reindent(request.replacement, *request.shift);
        return folded_only ? typed : std::string(request.replacement);
    }
    const std::vector<std::string_view> new_lines = pieces(request.replacement);
    std::vector<std::string_view> written = folded_only ? pieces(typed) : new_lines;
    if (written.size() != new_lines.size()) written = new_lines;

    // Which old line each new line repeats byte for byte, and which one it rewrites (the k-th
    // added line of a run of changes, the run's k-th removed line).
    std::vector<std::optional<std::size_t>> same_as(new_lines.size());
    std::vector<std::optional<std::size_t>> rewrites(new_lines.size());
    std::vector<std::size_t> removed;
    std::size_t added_in_run = 0;
    for (const LineEdit& e : diff_lines(old_lines, new_lines)) {
        if (e.op == LineOp::common) {
            same_as[e.new_index] = e.old_index;
            removed.clear();
            added_in_run = 0;
        } else if (e.op == LineOp::remove) {
            removed.push_back(e.old_index);
        } else if (added_in_run < removed.size()) {
            rewrites[e.new_index] = removed[added_in_run++];
        }
    }

    // The caller's indentations and the file's for them, from the lines old_string matched.
    IndentTranslation indents;
    if (request.shift) {
        for (std::size_t i = 0; i < old_lines.size(); ++i) indents.learn(old_lines[i], file_lines[i]);
    }

    bool census_read = false;  // indents has read the file's indentations
    std::string out;
    out.reserve(request.replacement.size() + request.replacement.size() / 8);
    for (std::size_t j = 0; j < new_lines.size(); ++j) {
        if (j > 0) out += '\n';
        if (same_as[j]) {
            out += file_lines[*same_as[j]];
            continue;
        }
        const std::string_view line = written[j];
        if (!request.shift || line.empty()) {
            out += line;
            continue;
        }
        const std::string_view indent = indent_of(line);
        std::optional<std::string_view> rewritten_old, rewritten_file;
        if (rewrites[j]) {
            rewritten_old = old_lines[*rewrites[j]];
            rewritten_file = file_lines[*rewrites[j]];
        }
        const IndentTranslation::Lookup found = indents.find(indent, rewritten_old, rewritten_file);
        const bool from_rewritten_line = found.indent && rewritten_old && indentation(*rewritten_old) == indent;
        std::string moved;
        if (found.indent && !indent.empty()) {
            moved = *found.indent + std::string(line.substr(indent.size()));
        } else if (found.conflict && !indent.empty()) {
            return base::fail(FitProblem{std::string(indent), found.first, found.second, j + 1});
        } else if (in_file_style(indent, *request.shift)) {
            out += line;
            continue;
        } else {
            moved = reindent(line, *request.shift);
        }
        // Tabs for spaces: the caller's blanks say a width, and when the file writes that width in
        // two ways (a tab, or four spaces aligning a continuation) only the line it rewrites can say
        // which; without it the line is refused rather than guessed.
        if (request.shift->by_width && !from_rewritten_line) {
            if (!census_read) {
                indents.read_file_indents(request.file_text);
                census_read = true;
            }
            const std::string_view target = indentation(moved);
            if (const auto other = indents.other_form_as_wide(target, request.shift->tab_width)) {
                // The same line elsewhere in the file, indented one way only, says which.
                const std::string_view text = line.substr(indent.size());
                auto form = indents.form_of_same_text(text, target, request.shift->tab_width);
                // Else how the file indents that width after a line ending like the one before.
                if (!form) {
                    std::string_view before = previous_visible(out);
                    if (before.empty()) before = previous_visible(request.before_region);
                    const std::string_view ended = rtrim_blanks(before);
                    if (!ended.empty())
                        form = indents.form_after(ended.back(), indentation(before), target, request.shift->tab_width);
                }
                if (!form) return base::fail(FitProblem{std::string(indent), std::string(target), *other, j + 1});
                moved = *form + std::string(text);
            }
        }
        out += moved;
    }
    return out;
}

}  // namespace text
