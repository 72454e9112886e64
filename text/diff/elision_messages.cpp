// The words of the elision refusal (text/diff/elision.hpp): what was found, what it would lose, and
// the call that works instead.
#include <string>

#include "text/diff/elision.hpp"

namespace text {

namespace {

// "3-11, 14, 20-22" for the first few runs of consecutive line numbers, then "and N more".
std::string line_ranges(const std::vector<std::size_t>& lines) {
    constexpr std::size_t max_runs = 5;
    std::string out;
    std::size_t runs = 0, i = 0;
    for (; i < lines.size() && runs < max_runs; ++runs) {
        std::size_t j = i;
        while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(lines[i]);
        if (j > i) out += "-" + std::to_string(lines[j]);
        i = j + 1;
    }
    if (i < lines.size()) out += " and " + std::to_string(lines.size() - i) + " more";
    return out;
}

}  // namespace

std::string elision_refusal(const Elision& e, std::string_view display_path, std::string_view tool) {
    const std::size_t n = e.dropped.size();
    std::string shown;
    for (const auto& line : e.dropped_text) shown += (shown.empty() ? "" : ", ") + ("`" + line + "`");
    if (n > e.dropped_text.size()) shown += ", ...";
    std::string out = "Refused: line " + std::to_string(e.marker_line) + " of the new text of " +
                      std::string(display_path) + ", `" + e.marker +
                      "`, is an elision marker (it stands for code left out), and this " + std::string(tool) +
                      " would drop " + std::to_string(n) + " line" + (n == 1 ? "" : "s") +
                      " of the file that the new text does not keep: line" + (n == 1 ? " " : "s ") +
                      line_ranges(e.dropped) + " (" + shown + "). Nothing was written. ";
    out += tool == "write" ? "Send the whole content with nothing left out"
                           : "Send the new text with nothing left out (the whole content, with write)";
    out +=
        ", or use edit to replace only the part that changes (old_string: the lines that change, new_string: their "
        "new text), leaving the rest of the file as it is. A marker line already in the file, or one that replaces no "
        "lines, is accepted.";
    return out;
}

}  // namespace text
