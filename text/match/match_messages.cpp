// The matcher's failure messages and the tier clauses the planner's messages use as well.
#include "text/match/match_messages.hpp"

namespace text {

std::string lines_words(std::size_t first, std::size_t last) {
    return last < first    ? "before line " + std::to_string(first)
           : last == first ? "line " + std::to_string(first)
                           : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

std::string tier_condition(MatchTier tier, bool prefixes_from_read) {
    switch (tier) {
        case MatchTier::exact: return "";
        case MatchTier::trailing_whitespace: return " when trailing whitespace is ignored";
        case MatchTier::unicode_normalized:
            return " when Unicode forms are normalized (NFKC) and typographic quotes, dashes and spaces read as ASCII";
        case MatchTier::indentation: return " when indentation is ignored";
        case MatchTier::line_numbers:
            return prefixes_from_read ? " once its read line-number prefixes are removed"
                                      : " once its line-number prefixes are removed";
    }
    return "";
}

std::string empty_old_string_message(const MatchOptions& options) {
    const std::string old_name(options.old_name);
    return old_name + " is empty, but the file already exists. Copy the text to replace from the file into " +
           old_name + " (read it first), or use write to replace the whole file.";
}

std::string identical_message(const MatchOptions& options) {
    const std::string old_name(options.old_name);
    const std::string new_name(options.new_name);
    return old_name + " and " + new_name +
           " are identical, so the edit would change nothing. Put the text that "
           "should replace " +
           old_name + " in " + new_name + ".";
}

std::string ambiguous_match_message(const MatchOptions& options, MatchTier tier, const std::vector<LineRange>& places,
                                    std::size_t count) {
    constexpr std::size_t kListed = 50;
    const std::string n = std::to_string(count);
    const std::string condition = tier == MatchTier::exact ? std::string(" in the file") : tier_condition(tier, true);
    return std::string(options.old_name) + " matches " + n + " places" + condition + " (at lines " +
           list_items(places.size(), kListed, count, [&](std::size_t i) { return to_string(places[i]); }) +
           "), but it must match exactly one. Include more of the surrounding lines in " +
           std::string(options.old_name) + " so that it matches only the place meant, or set replace_all " +
           "to true to change all " + n + ".";
}

std::string already_applied_message(const MatchOptions& options, const LineRange& where) {
    return std::string(options.old_name) + " was not found in the file, but the new text (" +
           std::string(options.new_name) + ") is already present at line " + std::to_string(where.first) +
           (where.last != where.first ? " (lines " + to_string(where) + ")" : std::string()) +
           ": this edit looks already applied, so nothing was changed. If it was not, read " +
           "the file and retry with " + std::string(options.old_name) + " copied from its current text.";
}

namespace {
// Indentation made visible: "→" for a tab, "·" for a space, quoted.
std::string shown_indent(std::string_view indent) {
    std::string s = "\"";
    for (const char c : indent) s += c == '\t' ? "\u2192" : "\u00B7";
    return s + "\"";
}
}  // namespace

std::string unclear_indentation_message(const MatchOptions& options, const LineRange& where, std::string_view caller,
                                        std::string_view file_a, std::string_view file_b, std::size_t new_line) {
    return std::string(options.old_name) + " matches " + lines_words(where.first, where.last) +
           " only with its indentation changed, and there its indentation " + shown_indent(caller) +
           " stands for both " + shown_indent(file_a) + " and " + shown_indent(file_b) +
           " (→ a tab, · a space). Line " + std::to_string(new_line) + " of " + std::string(options.new_name) +
           " is indented that way, so which one it means cannot be told; nothing was changed. Send the edit again "
           "with the file's own indentation in " +
           std::string(options.old_name) + " and " + std::string(options.new_name) + " (read the lines to see it).";
}

}  // namespace text
