// The caller's indentation mapped to the file's, pair by pair, with the conflicts kept so that a
// line whose indentation could mean two things is refused rather than guessed.
#include "text/match/indent_translation.hpp"

#include <algorithm>

#include "text/bytes/lines.hpp"

namespace text {

void IndentTranslation::learn(std::string_view caller_line, std::string_view file_line) {
    if (!has_visible_text(caller_line)) return;
    const std::string_view caller = indentation(caller_line);
    const std::string_view file = indentation(file_line);
    if (caller != file) shifted_ = true;
    auto it = known_.find(caller);
    if (it == known_.end()) {
        known_.emplace(std::string(caller), Entry{std::string(file), std::nullopt});
    } else if (it->second.file != file && !it->second.other) {
        it->second.other = std::string(file);
    }
}

IndentTranslation::Lookup IndentTranslation::find(std::string_view caller,
                                                  std::optional<std::string_view> rewritten_caller,
                                                  std::optional<std::string_view> rewritten_file) const {
    Lookup out;
    if (rewritten_caller && rewritten_file && has_visible_text(*rewritten_caller) &&
        indentation(*rewritten_caller) == caller) {
        out.indent = std::string(indentation(*rewritten_file));
        return out;
    }
    const auto it = known_.find(caller);
    if (it == known_.end()) return out;
    if (it->second.other) {
        out.conflict = true;
        out.first = it->second.file;
        out.second = *it->second.other;
        return out;
    }
    out.indent = it->second.file;
    return out;
}

namespace {
constexpr std::size_t kMaxFileIndents = 512;

std::size_t width_of(std::string_view indent, std::size_t tab_width) {
    std::size_t w = 0;
    for (const char c : indent) w = c == '\t' ? w + tab_width - w % tab_width : w + 1;
    return w;
}
}  // namespace

void IndentTranslation::read_file_indents(std::string_view lf_text) {
    file_indents_.clear();
    file_text_ = lf_text;
    LineCursor cursor(lf_text);
    std::string_view line;
    while (cursor.next(line)) {
        if (!has_visible_text(line)) continue;
        const std::string_view indent = indentation(line);
        if (std::find(file_indents_.begin(), file_indents_.end(), indent) != file_indents_.end()) continue;
        if (file_indents_.size() >= kMaxFileIndents) break;
        file_indents_.emplace_back(indent);
    }
}

std::optional<std::string> IndentTranslation::form_of_same_text(std::string_view text, std::string_view indent,
                                                                std::size_t tab_width) const {
    if (!has_visible_text(text) || tab_width == 0) return std::nullopt;
    const std::size_t width = width_of(indent, tab_width);
    std::optional<std::string_view> found;
    LineCursor cursor(file_text_);
    std::string_view line;
    while (cursor.next(line)) {
        const std::string_view its = indentation(line);
        if (line.substr(its.size()) != text || width_of(its, tab_width) != width) continue;
        if (found && *found != its) return std::nullopt;
        found = its;
    }
    if (!found) return std::nullopt;
    return std::string(*found);
}

std::optional<std::string> IndentTranslation::form_after(char previous_end,
                                                         std::optional<std::string_view> previous_indent,
                                                         std::string_view indent, std::size_t tab_width) const {
    if (tab_width == 0) return std::nullopt;
    const std::size_t width = width_of(indent, tab_width);
    // One pass for both questions: after a line ending so and indented so; after a line ending so.
    std::optional<std::string_view> narrow, broad;
    bool narrow_mixed = false, broad_mixed = false;
    std::size_t narrow_seen = 0, broad_seen = 0;  // one line is no habit: two are needed
    char last = '\0';                             // the last visible byte of the previous line with visible text
    std::string_view last_indent;                 // and its indentation
    LineCursor cursor(file_text_);
    std::string_view line;
    while (cursor.next(line)) {
        const std::string_view trimmed = rtrim_blanks(line);
        if (trimmed.empty()) continue;
        const std::string_view its = indentation(line);
        if (last == previous_end && width_of(its, tab_width) == width) {
            if (broad && *broad != its) broad_mixed = true;
            broad = its;
            ++broad_seen;
            if (previous_indent && last_indent == *previous_indent) {
                if (narrow && *narrow != its) narrow_mixed = true;
                narrow = its;
                ++narrow_seen;
            }
        }
        last = trimmed.back();
        last_indent = its;
    }
    if (narrow && narrow_seen >= 2) {
        if (narrow_mixed) return std::nullopt;
        return std::string(*narrow);
    }
    if (!broad || broad_mixed || broad_seen < 2) return std::nullopt;
    return std::string(*broad);
}

bool IndentTranslation::in_file(std::string_view indent) const {
    return std::find(file_indents_.begin(), file_indents_.end(), indent) != file_indents_.end();
}

std::optional<std::string> IndentTranslation::other_form_as_wide(std::string_view indent, std::size_t tab_width) const {
    if (tab_width == 0) return std::nullopt;
    const std::size_t width = width_of(indent, tab_width);
    for (const std::string& other : file_indents_) {
        // A space before a tab is a slip in the file, not a way of indenting anyone means: a
        // caller's blanks are never read as it.
        if (other.find(" \t") != std::string::npos) continue;
        if (other != indent && width_of(other, tab_width) == width) return other;
    }
    return std::nullopt;
}

}  // namespace text
