// Numbered lines of a patch and the small string helpers its parsers share.
// Newlines are normalized once here so that every parser counts lines the same way.
#include "text/patch/patch_text.hpp"

#include "text/bytes/file_facts.hpp"
#include "text/match/normalized_view.hpp"

namespace text {

PatchText::PatchText(std::string_view patch) : text_(normalize_newlines(patch)) {
    const std::string_view t = text_;
    std::size_t begin = 0;
    while (begin < t.size()) {
        std::size_t end = t.find('\n', begin);
        if (end == std::string_view::npos) end = t.size();
        lines_.push_back(t.substr(begin, end - begin));
        begin = end + 1;
    }
    // The same lines in the patch as given, for the newline that ended each.
    newlines_.reserve(lines_.size());
    std::size_t at = 0;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        const std::size_t end = patch.find_first_of("\r\n", at);
        if (end == std::string_view::npos) {
            newlines_.push_back(3);
            break;
        }
        if (patch[end] == '\n') {
            newlines_.push_back(0);
            at = end + 1;
        } else if (end + 1 < patch.size() && patch[end + 1] == '\n') {
            newlines_.push_back(1);
            at = end + 2;
        } else {
            newlines_.push_back(2);
            at = end + 1;
        }
    }
    newlines_.resize(lines_.size(), 3);
}

std::string_view PatchText::newline(std::size_t i) const {
    static constexpr std::string_view kNewlines[] = {"\n", "\r\n", "\r"};
    while (i < newlines_.size() && newlines_[i] == 3) {
        if (i == 0) return "\n";
        --i;
    }
    return i < newlines_.size() ? kNewlines[newlines_[i]] : std::string_view("\n");
}

std::string quote_patch_line(std::string_view line, std::size_t max_bytes) {
    bool cut = false;
    if (line.size() > max_bytes) {
        line = line.substr(0, utf8_floor(line, max_bytes));
        cut = true;
    }
    std::string out = "\"" + to_valid_utf8(line);
    if (cut) out += "\u2026";
    out += "\"";
    return out;
}

PatchError MalformedPatch::at(std::size_t line, std::string_view what) const {
    PatchError e;
    e.patch_line = line;
    e.message = "Malformed " + std::string(format);
    if (line) e.message += " at line " + std::to_string(line);
    e.message += ": " + std::string(what) + " Nothing was changed.";
    if (!help.empty()) e.message += "\n" + std::string(help);
    return e;
}

}  // namespace text
