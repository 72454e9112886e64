// What a change did, or would do in a dry run, as the model is told it: one type for every
// mutating tool, and the one place it becomes a tool result (the text the model reads and
// structuredContent, with the approval's note and the user's feedback).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "text/diff/unified_diff.hpp"
#include "checks/check_report.hpp"
#include "tools/tool.hpp"

namespace tools {

// One file of a change.
struct FileOutcome {
    std::string file_path;  // the real path, as results name files
    text::UnifiedDiff diff;
    bool created = false;
    bool deleted = false;
    std::optional<std::string> moved_from;  // the real path it was moved from
};

// "1 file", "3 files": a count and its noun, as summaries say it.
inline std::string count_of(std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

struct ChangeReport {
    // one_file: the file's fields at the top level (edit, multiedit, write, insert, undo);
    // files: a `files` list with totals (apply_diff).
    enum class Shape { one_file, files };
    Shape shape = Shape::one_file;
    std::string summary;             // the first sentence(s), before the notes
    std::vector<std::string> notes;  // what was kept or adapted: sentences after the summary, and `notes` (one_file)
    std::vector<FileOutcome> files;  // exactly one for one_file
    bool dry_run = false;
    const ApprovalDecision* decision = nullptr;  // nullptr: nothing was asked (dry run, nothing to write)
    Json fields = Json::object();  // the tool's own structured fields (match, replacements, format, blocks, ...)
    std::vector<checks::CheckOutcome>
        checks;  // post-write checks (--check) of the written files; none: no `checks` field
};

// The result: content[0] is the summary, the notes, the approval's note and feedback, the checks'
// sentence, then the diffs and what the checks found; structuredContent holds the same summary
// and every field (`checks` when any ran).
ToolResult to_tool_result(ChangeReport report);

}  // namespace tools
