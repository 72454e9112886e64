// Splitting LF texts into lines: the two line helpers of lines.hpp that allocate.
#include "text/bytes/lines.hpp"

namespace text {

LfLines split_lf_lines(std::string_view s) {
    LfLines out;
    std::vector<std::string_view>& lines = out.lines;
    out.ends_with_newline = !s.empty() && s.back() == '\n';
    if (out.ends_with_newline) s.remove_suffix(1);
    std::size_t b = 0;
    while (true) {
        const std::size_t e = s.find('\n', b);
        if (e == std::string_view::npos) {
            lines.push_back(s.substr(b));
            break;
        }
        lines.push_back(s.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

LineTable::LineTable(std::string_view text) : text_(text) {
    std::size_t b = 0;
    while (b < text.size()) {
        starts_.push_back(b);
        const std::size_t e = text.find('\n', b);
        if (e == std::string_view::npos) break;
        b = e + 1;
    }
}

}  // namespace text
