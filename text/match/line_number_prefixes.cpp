// Reading line-number prefixes off a text copied from a file view.
#include "text/match/line_number_prefixes.hpp"

#include <limits>

#include "text/bytes/lines.hpp"

namespace text {

std::optional<UnnumberedText> strip_line_number_prefixes(std::string_view s) {
    UnnumberedText result;
    std::string& out = result.text;
    out.reserve(s.size());
    bool any = false;
    enum class LineNumberForm { none, tab, arrow, bar } form = LineNumberForm::none;
    std::size_t index = 0;
    LineCursor cursor(s);
    std::string_view line;
    while (cursor.next(line)) {
        if (!line.empty()) {
            std::size_t i = indentation(line).size();
            const std::size_t digits = i;
            std::size_t number = 0;
            while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
                if (number < std::numeric_limits<std::size_t>::max() / 10) {
                    number = number * 10 + static_cast<std::size_t>(line[i] - '0');
                }
                ++i;
            }
            if (i == digits) return std::nullopt;
            // The separator after the number: our `read`'s tab (cat -n), Claude Code's `→`, Roo's
            // ` | ` (` |` on an empty line); every line must carry the form the first one has.
            const std::string_view rest = line.substr(i);
            std::size_t separator = 0;
            LineNumberForm line_form = LineNumberForm::none;
            if (rest.starts_with("\t")) {
                line_form = LineNumberForm::tab, separator = 1;
            } else if (rest.starts_with("\xE2\x86\x92")) {
                line_form = LineNumberForm::arrow, separator = 3;
            } else if (rest.starts_with(" | ")) {
                line_form = LineNumberForm::bar, separator = 3;
            } else if (rest == " |") {
                line_form = LineNumberForm::bar, separator = 2;
            }
            if (line_form == LineNumberForm::none || (any && line_form != form)) return std::nullopt;
            form = line_form;
            if (!any) {
                result.first_number = number;
                result.first_index = index;
            }
            any = true;
            out.append(line.substr(i + separator));
        }
        if (cursor.newline()) out += '\n';
        ++index;
    }
    if (!any) return std::nullopt;
    return result;
}

}  // namespace text
