// Numbered lines of a patch and the small string helpers its parsers share.
// Newlines are normalized once here so that every parser counts lines the same way.
#include "text/patch_text.hpp"

#include "text/file_facts.hpp"
#include "text/normalized_view.hpp"

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
