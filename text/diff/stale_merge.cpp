// merge_stale_change: merge3, then a note or the conflict report.
#include "text/diff/stale_merge.hpp"
#include "base/wording.hpp"

#include "text/diff/unified_diff.hpp"

namespace text {

namespace {

constexpr std::size_t max_conflicts_shown = 5;
constexpr std::size_t max_side_bytes = 2048;

std::string bounded(const std::string& text) {
    if (text.size() <= max_side_bytes) return text;
    const std::string cut = text.substr(0, base::utf8_prefix_length(text, max_side_bytes));  // whole characters
    return cut + "\n[… " + std::to_string(text.size() - cut.size()) + " more bytes]\n";
}

std::string ended(std::string text) {
    if (!text.empty() && text.back() != '\n') text += '\n';
    return text;
}

std::string lines_word(std::size_t first, std::size_t count) {
    if (count <= 1) return "line " + std::to_string(first);
    return "lines " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

std::string conflict_report(const std::vector<text::MergeConflict>& conflicts) {
    std::string out;
    for (std::size_t i = 0; i < conflicts.size() && i < max_conflicts_shown; ++i) {
        const auto& c = conflicts[i];
        out += "\n@@ " +
               (c.base_count == 0 ? "before line " + std::to_string(c.base_first)
                                  : lines_word(c.base_first, c.base_count)) +
               " of the file as this change saw it; from line " + std::to_string(c.theirs_first) +
               " of the file now @@\n";
        if (c.unaligned)
            out += "(these lines repeat, so where the other change belongs relative to this one is not certain)\n";
        out += "<<<<<<< this change\n" + ended(bounded(c.ours_text)) + "=======\n" + ended(bounded(c.theirs_text)) +
               ">>>>>>> the file now\n";
    }
    if (conflicts.size() > max_conflicts_shown)
        out += "... and " + std::to_string(conflicts.size() - max_conflicts_shown) + " more overlaps\n";
    return out;
}

base::Result<StaleMerge> merge_stale_change(std::string_view base, std::string_view ours, std::string_view theirs,
                                            const std::string& display, const std::string& since,
                                            base::ErrorReason reason) {
    text::MergeResult merged = text::merge3(base, ours, theirs);
    if (!merged.clean) {
        text::DiffOptions options;
        options.old_path = display;
        const auto fresh = text::unified_diff(base, theirs, options);
        return base::fail(base::Failure{
            "Nothing was written: " + display + " changed on disk " + since + " (another program wrote it), and " +
                std::to_string(merged.conflicts.size()) +
                (merged.conflicts.size() == 1 ? " place of that change overlaps" : " places of that change overlap") +
                " this one, so they cannot be merged:\n" + conflict_report(merged.conflicts) +
                "What changed on disk:\n" + fresh.text +
                "Read the file again and redo the change on its current content.",
            reason});
    }
    StaleMerge out;
    out.bytes = std::move(merged.merged);
    out.note = "merged: " + display + " changed on disk " + since + " (another program changed it in " +
               std::to_string(merged.theirs_hunks) + (merged.theirs_hunks == 1 ? " place" : " places") +
               "); both changes are kept (merged line by line), and the diff is against the file as it is now";
    return out;
}

}  // namespace text
