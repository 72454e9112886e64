// The change that puts an elision marker where real lines were (the markers themselves are found
// in elision_markers.cpp), and the count behind "removes most of the file".
#include "text/diff/elision.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_set>

#include "text/diff/line_edit_script.hpp"

namespace text {

namespace {

// A line without the blanks and CR around it, as the markers are compared (elision_markers.cpp).
std::string_view trim_line(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

// The lines of `text` without their terminators ("\r" dropped too), a UTF-8 BOM skipped.
std::vector<std::string_view> lines_without_terminators(std::string_view text) {
    constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
    if (text.substr(0, utf8_bom.size()) == utf8_bom) text.remove_prefix(utf8_bom.size());
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return lines;
}

}  // namespace

std::optional<Elision> find_elision(std::string_view old_text, std::string_view new_text, std::string_view path) {
    const std::vector<std::size_t> markers = elision_marker_lines(new_text, path);
    if (markers.empty()) return std::nullopt;
    const std::vector<std::string_view> old_lines = lines_without_terminators(old_text);
    const std::vector<std::string_view> new_lines = lines_without_terminators(new_text);
    std::unordered_set<std::string_view> old_trimmed;
    for (const auto line : old_lines) old_trimmed.insert(trim_line(line));
    std::vector<bool> new_marker(new_lines.size(), false);
    std::size_t first_new = new_lines.size();
    for (const std::size_t i : markers)
        if (!old_trimmed.contains(trim_line(new_lines[i]))) {
            new_marker[i] = true;
            first_new = std::min(first_new, i);
        }
    if (first_new == new_lines.size()) return std::nullopt;  // every marker is in the file already

    const std::vector<LineEdit> edits = diff_lines(old_lines, new_lines);
    const auto found = [&](std::size_t marker, std::vector<std::size_t> dropped) {
        Elision e;
        e.marker_line = marker + 1;
        e.marker = std::string(trim_line(new_lines[marker]));
        for (std::size_t k = 0; k < dropped.size() && k < 3; ++k)
            e.dropped_text.push_back(base::cut_utf8(trim_line(old_lines[dropped[k]]), 60));
        for (auto& d : dropped) ++d;
        e.dropped = std::move(dropped);
        return e;
    };
    // Each run of changed lines: a new marker among its additions and real lines among its removals.
    std::vector<std::size_t> all_dropped;
    for (std::size_t i = 0; i < edits.size();) {
        if (edits[i].op == LineOp::common) {
            ++i;
            continue;
        }
        std::vector<std::size_t> dropped;
        std::optional<std::size_t> marker;
        for (; i < edits.size() && edits[i].op != LineOp::common; ++i) {
            const LineEdit& e = edits[i];
            if (e.op == LineOp::remove && !trim_line(old_lines[e.old_index]).empty()) dropped.push_back(e.old_index);
            if (e.op == LineOp::add && new_marker[e.new_index] && !marker) marker = e.new_index;
        }
        if (marker && !dropped.empty()) return found(*marker, std::move(dropped));
        all_dropped.insert(all_dropped.end(), dropped.begin(), dropped.end());
    }
    // The marker stands apart from the lines dropped (a kept line between them): still lost lines.
    if (all_dropped.empty()) return std::nullopt;  // a pure insertion
    return found(first_new, std::move(all_dropped));
}

std::size_t count_lines(std::string_view bytes) {
    if (bytes.empty()) return 0;
    return static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) + (bytes.back() != '\n');
}

std::string removal_headline(std::size_t removals, std::size_t additions, std::size_t old_lines) {
    if (old_lines <= 20 || removals <= additions || (removals - additions) * 2 <= old_lines) return {};
    return "removes " + std::to_string(removals) + " of " + std::to_string(old_lines) + " lines";
}

}  // namespace text
