// ChangeReport to ToolResult: the only place a change's result is written as text and JSON.
#include "tools/pipeline/change_report.hpp"

#include <cctype>

namespace tools {

namespace {

// A planner's note as a sentence: capitalised, ending with a full stop.
std::string as_sentence(std::string note) {
    note[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(note[0])));
    if (note.back() != '.') note += '.';
    return note;
}

// What the summary adds for an approval: the gate's note and the user's feedback.
std::string decision_note(const ApprovalDecision* decision) {
    std::string note;
    if (decision && !decision->message.empty()) note += " " + decision->message;
    if (decision && !decision->feedback.empty()) note += "\nFeedback from the user: " + decision->feedback;
    return note;
}

Json::object_t file_fields(FileOutcome& file) {
    Json::object_t fields;
    fields.emplace("file_path", std::move(file.file_path));
    fields.emplace("diff", std::move(file.diff.text));
    fields.emplace("additions", file.diff.additions);
    fields.emplace("removals", file.diff.removals);
    fields.emplace("created", file.created);
    return fields;
}

}  // namespace

ToolResult to_tool_result(ChangeReport report) {
    // A change awaiting the human's review in the view is not written: the gate's sentence says so
    // instead of the tool's own (which says what was done).
    const bool awaiting_review = report.decision && report.decision->kind == ApprovalDecision::Kind::awaiting_review;
    std::string summary = awaiting_review ? report.decision->message : std::move(report.summary);
    for (const auto& note : report.notes)
        if (!note.empty()) summary += " " + as_sentence(note);
    if (!awaiting_review) summary += decision_note(report.decision);
    if (!report.checks.empty()) summary += " " + checks::checks_sentence(report.checks);

    std::size_t diff_bytes = 0;
    for (const auto& file : report.files) diff_bytes += file.diff.text.size() + 1;
    ToolResult result;
    result.text.reserve(summary.size() + 2 + diff_bytes);
    result.text = summary;
    bool first_diff = true;
    for (const auto& file : report.files) {
        if (file.diff.text.empty()) continue;
        result.text += first_diff ? "\n\n" : "\n";
        result.text += file.diff.text;
        first_diff = false;
    }
    if (const std::string found = checks::checks_text(report.checks); !found.empty())
        result.text += (result.text.back() == '\n' ? "\n" : "\n\n") + found;

    // Filled in place: a braced list would copy every value (the diffs among them) once more.
    Json::object_t fields;
    fields.emplace("summary", std::move(summary));  // for hosts that show their model only structuredContent
    fields.emplace("dry_run", report.dry_run);
    fields.emplace("approval", awaiting_review   ? std::string("pending")
                               : report.decision ? std::string(to_string(report.decision->approval))
                                                 : std::string("none"));
    if (report.shape == ChangeReport::Shape::one_file) {
        FileOutcome& file = report.files.at(0);
        fields.emplace("first_changed_line", file.diff.first_changed_line);
        // Said only when the diff was cut: a `false` costs a model tokens on every change in the hosts
        // that show it structuredContent (issue 26). An empty `notes` goes the same way when the
        // result is sent (server/tool_call.cpp), after the call's own notes had their chance to join.
        if (file.diff.truncated) fields.emplace("diff_truncated", true);
        fields.merge(file_fields(file));
        fields.emplace("notes", std::move(report.notes));
    } else {
        std::size_t additions = 0, removals = 0;
        Json::array_t files;
        for (auto& file : report.files) {
            additions += file.diff.additions;
            removals += file.diff.removals;
            Json::object_t entry = file_fields(file);
            entry.emplace("deleted", file.deleted);
            if (file.moved_from) entry.emplace("moved_from", std::move(*file.moved_from));
            files.emplace_back(std::move(entry));
        }
        fields.emplace("files", std::move(files));
        fields.emplace("additions", additions);
        fields.emplace("removals", removals);
    }
    for (auto& [key, value] : report.fields.items()) fields.insert_or_assign(key, std::move(value));
    if (!report.checks.empty()) fields.insert_or_assign("checks", checks::checks_json(report.checks));
    if (report.decision && !report.decision->feedback.empty())
        fields.insert_or_assign("feedback", report.decision->feedback);
    result.structured = std::move(fields);
    if (report.decision && !report.decision->view.is_null())
        result.meta = Json::object({{review_meta_key, report.decision->view}});
    return result;
}

}  // namespace tools
