// new_string fitted to a tolerant match line by line: unchanged lines are copied from the file,
// changed lines take the file's indentation (learned from the matched lines) and typography.
#include "text/replacement_fit.hpp"

#include <map>
#include <optional>
#include <vector>

#include "text/line_diff.hpp"
#include "text/lines.hpp"
#include "text/typography_transfer.hpp"

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

struct IndentEntry {
    std::string_view file;
    std::optional<std::string_view> other;  // a second, different file indentation for the same key
};

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

    // Which old line each new line repeats byte for byte.
    std::vector<std::optional<std::size_t>> same_as(new_lines.size());
    for (const LineEdit& e : diff_lines(old_lines, new_lines)) {
        if (e.op == LineOp::common) same_as[e.new_index] = e.old_index;
    }

    // The caller's indentations and the file's for them, from the lines old_string matched.
    std::map<std::string_view, IndentEntry> indents;
    if (request.shift) {
        for (std::size_t i = 0; i < old_lines.size(); ++i) {
            if (!has_visible_text(old_lines[i])) continue;
            const std::string_view key = indent_of(old_lines[i]);
            const std::string_view value = indent_of(file_lines[i]);
            auto [it, inserted] = indents.try_emplace(key, IndentEntry{value, std::nullopt});
            if (!inserted && it->second.file != value && !it->second.other) it->second.other = value;
        }
    }

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
        if (const auto it = indents.find(indent); it != indents.end() && !indent.empty()) {
            if (it->second.other) {
                return base::fail(FitProblem{std::string(indent), std::string(it->second.file),
                                             std::string(*it->second.other), j + 1});
            }
            out += it->second.file;
            out += line.substr(indent.size());
        } else if (in_file_style(indent, *request.shift)) {
            out += line;
        } else {
            out += reindent(line, *request.shift);
        }
    }
    return out;
}

}  // namespace text
