// approval_form / read_approval_answer.
#include "server/approval_form.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <vector>

#include "protocol/jsonrpc.hpp"

namespace server {

namespace {

constexpr std::size_t max_feedback = 4000;
// What hosts render of a form (seen in their TUIs): Claude Code shows the message's first four
// lines, or three plus "… (+N more lines)", each cut at the terminal's width; Codex shows the whole
// message but cuts it silently where the screen ends (about 16 lines fit a 30-row terminal
// together with the choices). So: the summary first, a small change whole within four lines, a
// large one as summary, where the full diff is, its first changed line, then a bounded excerpt.
constexpr std::size_t max_small_change_lines = 3;
constexpr std::size_t max_excerpt_lines = 12;
constexpr std::size_t max_form_line = 160;  // bytes of one diff line shown

// The diff's lines without the file header pairs (`--- a/x` + `+++ b/x` before a hunk).
struct DiffLines {
    std::vector<std::string_view> body;     // hunk headers, context and changed lines
    std::vector<std::string_view> changed;  // `+` and `-` lines only
    std::size_t hunks = 0;
    std::size_t first_line = 0;  // new-side line of the first change (0: none)
};

DiffLines split_diff(std::string_view diff) {
    std::vector<std::string_view> lines;
    for (std::size_t pos = 0; pos < diff.size();) {
        std::size_t nl = diff.find('\n', pos);
        if (nl == std::string_view::npos) nl = diff.size();
        lines.push_back(diff.substr(pos, nl - pos));
        pos = nl + 1;
    }
    DiffLines out;
    std::size_t new_line = 0;  // the new side's line number at this point of the hunk
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto line = lines[i];
        if (line.starts_with("--- ") && i + 2 < lines.size() && lines[i + 1].starts_with("+++ ") &&
            lines[i + 2].starts_with("@@")) {
            ++i;  // the file header pair
            continue;
        }
        if (line.starts_with("@@")) {
            ++out.hunks;
            new_line = 0;
            const auto plus = line.find(" +");
            if (plus != std::string_view::npos)
                for (std::size_t k = plus + 2; k < line.size() && line[k] >= '0' && line[k] <= '9'; ++k)
                    new_line = new_line * 10 + static_cast<std::size_t>(line[k] - '0');
        } else if (line.starts_with("+") || line.starts_with("-")) {
            if (out.changed.empty()) out.first_line = std::max<std::size_t>(new_line, 1);
            out.changed.push_back(line);
            if (line[0] == '+') ++new_line;
        } else if (line.starts_with(" ")) {
            ++new_line;
        }
        out.body.push_back(line);
    }
    return out;
}

// The first change on one line: its first removed line and what replaces it ("-a  →  +b"), so a
// host that shows three lines shows what the text becomes too.
std::string first_change(const DiffLines& d) {
    const auto first = d.changed.front();
    if (first[0] == '-')
        for (std::size_t i = 1; i < d.changed.size(); ++i)
            if (d.changed[i][0] == '+')
                return base::cut_utf8(first, max_form_line / 2) + "  \u2192  " +
                       base::cut_utf8(d.changed[i], max_form_line / 2);
    return base::cut_utf8(first, max_form_line);
}

// A bounded excerpt of the diff in which each run of removed or added lines shows at most a few
// of its lines, so a replaced block shows both what goes and what comes.
struct Excerpt {
    std::vector<std::string> lines;
    std::size_t rest = 0;  // diff lines not shown
};

Excerpt excerpt_of(const DiffLines& d) {
    constexpr std::size_t max_run_shown = 4;
    Excerpt out;
    std::size_t shown_lines = 0;
    for (std::size_t i = 0; i < d.body.size();) {
        const char sign = d.body[i].empty() ? ' ' : d.body[i][0];
        std::size_t run = 1;
        if (sign == '+' || sign == '-')
            while (i + run < d.body.size() && !d.body[i + run].empty() && d.body[i + run][0] == sign) ++run;
        const std::size_t take = std::min(run, sign == '+' || sign == '-' ? max_run_shown : run);
        const bool cut_run = take < run;
        if (out.lines.size() + take + (cut_run ? 1 : 0) > max_excerpt_lines) break;
        for (std::size_t k = 0; k < take; ++k) out.lines.push_back(base::cut_utf8(d.body[i + k], max_form_line));
        if (cut_run)
            out.lines.push_back("\u2026 " + std::to_string(run - take) +
                                (sign == '-' ? " more removed" : " more added") + " line" +
                                (run - take == 1 ? "" : "s"));
        shown_lines += run;
        i += run;
    }
    out.rest = d.body.size() - shown_lines;
    return out;
}

// The paths, as many as fit a line (a patch of 2,000 files made a first line of 28 KB), then how
// many more there are.
std::string join_paths(const tools::ApprovalRequest& ask) {
    constexpr std::size_t max_paths_bytes = 200;
    std::string paths;
    std::size_t shown = 0;
    for (const auto& p : ask.paths) {
        if (shown > 0 && paths.size() + p.size() > max_paths_bytes) break;
        paths += (paths.empty() ? "" : ", ") + base::cut_utf8(p, max_paths_bytes);
        ++shown;
    }
    if (shown < ask.paths.size()) paths += " and " + std::to_string(ask.paths.size() - shown) + " more";
    return paths.empty() ? std::string("the file") : paths;
}

// What the change does to whole files, which +a -r does not say: the files it deletes (with the
// size of one deleted file, binary or not, whose lines a diff does not count), the file a move
// replaces, the files a patch creates.
std::string file_effects(const tools::ApprovalRequest& ask) {
    std::size_t deleted = 0, created = 0, replaced = 0;
    const std::string* deleted_bytes = nullptr;
    for (const auto& image : ask.images) {
        if (image.before && !image.after) {
            ++deleted;
            deleted_bytes = image.before;
        }
        created += !image.before && image.after;
        replaced += image.before && image.after;
    }
    std::string out;
    const auto add = [&out](std::string part) { out += (out.empty() ? "" : ", ") + std::move(part); };
    if (ask.tool == "move") {
        if (replaced && ask.paths.size() == 2) add("replaces the existing " + ask.paths.back());
        return out;
    }
    if (deleted == 1) {
        const bool binary = deleted_bytes->find('\0') != std::string::npos;
        add(std::string("deletes a ") + (binary ? "binary " : "") + "file of " +
            base::count_of(deleted_bytes->size(), "byte"));
    } else if (deleted > 1) {
        add("deletes " + std::to_string(deleted) + " files");
    }
    if (created && ask.tool == "apply_diff")
        add("creates " + std::to_string(created) + (created == 1 ? " file" : " files"));
    return out;
}

}  // namespace

std::string approval_summary(const tools::ApprovalRequest& ask) {
    const DiffLines d = split_diff(ask.diff);
    // Counts before paths: a long path is what a narrow form cuts.
    // A change that removes most of a file says so before anything else: "[removes 412 of 480 lines] write ...".
    std::string line = ask.headline.empty() ? ask.tool : "[" + ask.headline + "] " + ask.tool;
    if (!ask.asked_again_because.empty()) line += " (" + ask.asked_again_because + ")";
    line += " +" + std::to_string(ask.additions) + " -" + std::to_string(ask.removals);
    if (const std::string effects = file_effects(ask); !effects.empty()) line += " (" + effects + ")";
    if (!ask.encodings.empty()) line += " (written " + ask.encodings + ")";
    if (d.first_line) line += " at line " + std::to_string(d.first_line);
    if (d.hunks > 1) line += " (" + std::to_string(d.hunks) + " places)";
    return line + ": " + join_paths(ask);
}

bool shows_whole(const tools::ApprovalRequest& ask) {
    if (ask.paths.size() > 1) return false;
    const DiffLines d = split_diff(ask.diff);
    if (d.changed.size() > max_small_change_lines) return false;
    for (const auto line : d.changed)
        if (line.size() > max_form_line) return false;
    return true;
}

nlohmann::json approval_form(const tools::ApprovalRequest& ask, const FormOptions& options) {
    const DiffLines d = split_diff(ask.diff);
    std::string message = approval_summary(ask);
    if (shows_whole(ask)) {
        for (const auto line : d.changed) message += "\n" + std::string(line);
        // No line changed (a binary file's "Binary files a/x and /dev/null differ"): what the diff says.
        if (d.changed.empty())
            for (std::size_t i = 0; i < d.body.size() && i < max_small_change_lines; ++i)
                message += "\n" + base::cut_utf8(d.body[i], max_form_line);
    } else {
        std::size_t diff_lines = 0;
        for (const char c : ask.diff) diff_lines += c == '\n';
        message += options.full_diff_path
                       ? "\nFull diff (" + std::to_string(diff_lines) + " lines): " + *options.full_diff_path
                       : "\nOnly the start of the diff fits here (" + std::to_string(diff_lines) + " lines in all).";
        if (!d.changed.empty()) message += "\n" + first_change(d);
        message += "\n";
        const auto excerpt = excerpt_of(d);
        for (const auto& line : excerpt.lines) message += "\n" + line;
        if (excerpt.rest)
            message += "\n\u2026 " + std::to_string(excerpt.rest) + " more diff lines" +
                       (options.full_diff_path ? " in the full diff" : "");
    }

    nlohmann::json decision;
    const bool titled = options.version >= std::string_view("2025-11-25");
    const std::string description = "Apply writes exactly the change summarized above.";
    if (titled) {
        decision = {{"type", "string"},
                    {"title", "Decision"},
                    {"description", description},
                    {"oneOf",
                     {{{"const", "apply"}, {"title", "Apply"}},
                      {{"const", "apply_session"}, {"title", "Apply and stop asking this session"}},
                      {{"const", "reject"}, {"title", "Reject"}}}}};
    } else {
        decision = {{"type", "string"},
                    {"title", "Decision"},
                    {"description", description},
                    {"enum", {"apply", "apply_session", "reject"}},
                    {"enumNames", {"Apply", "Apply and stop asking this session", "Reject"}}};
    }
    nlohmann::json properties = {{"decision", decision}};
    if (options.feedback_field)
        properties["feedback"] = {
            {"type", "string"}, {"title", "Feedback for the agent (optional)"}, {"maxLength", max_feedback}};
    nlohmann::json params = {
        {"message", message},
        {"requestedSchema", {{"type", "object"}, {"properties", properties}, {"required", {"decision"}}}}};
    if (titled) params["mode"] = "form";
    return params;
}

ApprovalAnswer read_approval_answer(const nlohmann::json& result) {
    ApprovalAnswer answer;
    if (!result.is_object()) return answer;
    const std::string action = protocol::string_member(result, "action").value_or("");
    const auto content = result.find("content");
    if (content != result.end() && content->is_object()) {
        const auto fb = content->find("feedback");
        if (fb != content->end() && fb->is_string()) answer.feedback = fb->get<std::string>().substr(0, max_feedback);
    }
    if (action == "decline")
        answer.kind = ApprovalAnswer::Kind::decline;
    else if (action == "cancel")
        answer.kind = ApprovalAnswer::Kind::cancel;
    else if (action == "accept") {
        std::string decision;
        if (content != result.end() && content->is_object()) {
            const auto d = content->find("decision");
            if (d != content->end() && d->is_string()) decision = d->get<std::string>();
        }
        if (decision == "apply")
            answer.kind = ApprovalAnswer::Kind::apply;
        else if (decision == "apply_session")
            answer.kind = ApprovalAnswer::Kind::apply_session;
        else if (decision == "reject")
            answer.kind = ApprovalAnswer::Kind::reject;
        else
            answer.kind = ApprovalAnswer::Kind::no_decision;
    }
    return answer;
}

}  // namespace server
