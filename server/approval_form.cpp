// approval_form / read_approval_answer.
#include "server/approval_form.hpp"

namespace server {

namespace {

constexpr std::size_t max_diff_in_form = 6000;  // bytes of diff shown in the form
constexpr std::size_t max_feedback = 4000;

std::string cut_diff(const std::string& diff) {
    if (diff.size() <= max_diff_in_form) return diff;
    std::size_t cut = diff.rfind('\n', max_diff_in_form);
    if (cut == std::string::npos) cut = max_diff_in_form;
    std::size_t hidden_lines = 0;
    for (std::size_t i = cut; i < diff.size(); ++i) hidden_lines += diff[i] == '\n';
    return diff.substr(0, cut + 1) + "… (diff cut here: " + std::to_string(hidden_lines) + " more lines not shown)\n";
}

}  // namespace

nlohmann::json approval_form(const tools::ApprovalRequest& ask, std::string_view version) {
    std::string paths;
    for (const auto& p : ask.paths) paths += (paths.empty() ? "" : ", ") + p;
    const std::string message = "mcp-edit: " + ask.tool + " wants to change " + paths + " (+" +
                                std::to_string(ask.additions) + " -" + std::to_string(ask.removals) + ")\n\n" +
                                cut_diff(ask.diff);
    nlohmann::json decision;
    const bool titled = version >= std::string_view("2025-11-25");
    if (titled) {
        decision = {{"type", "string"},
                    {"title", "Decision"},
                    {"description", "Apply writes exactly the change shown."},
                    {"oneOf",
                     {{{"const", "apply"}, {"title", "Apply"}},
                      {{"const", "apply_session"}, {"title", "Apply and stop asking this session"}},
                      {{"const", "reject"}, {"title", "Reject"}}}}};
    } else {
        decision = {{"type", "string"},
                    {"title", "Decision"},
                    {"description", "Apply writes exactly the change shown."},
                    {"enum", {"apply", "apply_session", "reject"}},
                    {"enumNames", {"Apply", "Apply and stop asking this session", "Reject"}}};
    }
    nlohmann::json params = {
        {"message", message},
        {"requestedSchema",
         {{"type", "object"},
          {"properties",
           {{"decision", decision},
            {"feedback",
             {{"type", "string"}, {"title", "Feedback for the agent (optional)"}, {"maxLength", max_feedback}}}}},
          {"required", {"decision"}}}}};
    if (titled) params["mode"] = "form";
    return params;
}

ApprovalAnswer read_approval_answer(const nlohmann::json& result) {
    ApprovalAnswer answer;
    if (!result.is_object()) return answer;
    const std::string action = result.value("action", "");
    const auto content = result.find("content");
    if (content != result.end() && content->is_object()) {
        const auto fb = content->find("feedback");
        if (fb != content->end() && fb->is_string()) answer.feedback = fb->get<std::string>().substr(0, max_feedback);
    }
    if (action == "decline") answer.kind = ApprovalAnswer::Kind::decline;
    else if (action == "cancel") answer.kind = ApprovalAnswer::Kind::cancel;
    else if (action == "accept") {
        std::string decision;
        if (content != result.end() && content->is_object()) {
            const auto d = content->find("decision");
            if (d != content->end() && d->is_string()) decision = d->get<std::string>();
        }
        if (decision == "apply") answer.kind = ApprovalAnswer::Kind::apply;
        else if (decision == "apply_session") answer.kind = ApprovalAnswer::Kind::apply_session;
        else if (decision == "reject") answer.kind = ApprovalAnswer::Kind::reject;
        else answer.kind = ApprovalAnswer::Kind::no_decision;
    }
    return answer;
}

std::string refusal_message(const ApprovalAnswer& answer, const std::string& what) {
    // Decline, cancel and an empty accept also come from clients that answer forms by themselves
    // (`claude -p` cancels, `codex exec` declines): the text must not send the agent looking for a
    // person who is not there, so it says what happened and names the ways out.
    std::string why;
    bool maybe_unattended = true;
    switch (answer.kind) {
        case ApprovalAnswer::Kind::reject:
            why = "The user chose Reject in the approval form for " + what + ".";
            maybe_unattended = false;
            break;
        case ApprovalAnswer::Kind::decline:
            why = "The client answered the approval form for " + what + " with \"decline\".";
            break;
        case ApprovalAnswer::Kind::cancel:
            why = "The client answered the approval form for " + what + " with \"cancel\".";
            break;
        case ApprovalAnswer::Kind::no_decision:
            why = "The client answered the approval form for " + what + " without a decision (only an explicit Apply writes).";
            break;
        default: why = "The change was not approved."; break;
    }
    std::string out = why + " Nothing was written.";
    if (!answer.feedback.empty()) out += "\nFeedback from the user: " + answer.feedback;
    if (!maybe_unattended) {
        if (answer.feedback.empty()) out += " Ask the user what they want changed, or propose a different change.";
        return out;
    }
    out += "\nEither a person dismissed the form, or no form was shown at all: hosts running without a person "
           "(such as `claude -p` and `codex exec`) answer approval forms by themselves. In an unattended run, "
           "retrying will not help; the ways out are to start mcp-edit with `--approval auto` in the host's MCP server "
           "configuration (changes are then written without asking), or, in Claude Code, to add an `Elicitation` hook "
           "that answers the form with {\"decision\": \"apply\"}. Until then, `dry_run: true` shows a change without "
           "writing it. If a person is there, ask them whether to apply the change.";
    return out;
}

}  // namespace server
