// The approval gate's messages (approval_messages.hpp). Each keeps the exact wording the tests and
// the models rely on.
#include "server/approval_messages.hpp"

#include "server/approval_form.hpp"

namespace server {

std::string review_pending_for_file_message(std::string_view title, std::string_view id) {
    return "Refused: " + std::string(title) + " (" + std::string(id) +
           ") still awaits the user's review in the review view, and this change touches the same "
           "file; nothing was written. Wait for the user's decision (it reaches you in a message or "
           "in your next tool result), then call again on the file as it is then.";
}

std::string awaiting_review_message(std::string_view title, std::size_t additions, std::size_t removals,
                                    std::string_view id, bool one_file) {
    return "Not written yet: the user reviews this " + std::string(title) + " (+" + std::to_string(additions) + " -" +
           std::to_string(removals) + ") in the review view (" + std::string(id) +
           "); it is written only if they apply it there. Do not repeat the call: their decision comes in a "
           "message or in your next tool result. Until then other changes to " +
           (one_file ? "this file" : "these files") + " are refused.";
}

std::string changed_since_view_reason(const std::string& asked_again_because) {
    if (asked_again_because.empty())
        return "the file changed after the user saw the change: this is the change as it would be written now";
    return asked_again_because + ", after the user saw the change";
}

std::string approval_unavailable_message() {
    return "Refused: this server requires the user's approval for every change (--approval require), "
           "and this client can show neither the review view nor an approval form (it declared neither MCP "
           "Apps nor elicitation). Nothing was written. Show the user the change (call again with dry_run: "
           "true for the diff) and let them apply it.";
}

std::string written_without_asking_note() {
    return "(Written without asking: this client can show neither the review view nor approval forms; the server "
           "policy is --approval ask.)";
}

std::string too_many_waiting_message() {
    return "Too many approval requests are waiting for the user; nothing was written. Try again once they are "
           "answered.";
}

std::string cancelled_while_waiting_message() {
    return "Cancelled by the client while waiting for approval; nothing was written.";
}

std::string approval_timed_out_message(std::string_view seconds) {
    return "No answer to the approval request within " + std::string(seconds) +
           " s, so it counts as rejected: nothing was written. Ask the user, then call again.";
}

std::string malformed_answer_message(std::string_view malformed) {
    return "The client's answer to the approval form is malformed (" + std::string(malformed) +
           "), so it was not read and nothing was written. Call the tool again to ask anew.";
}

std::string form_not_shown_message(std::string_view error) {
    return "The client could not show the approval form (" + std::string(error) + "); nothing was written.";
}

std::string request_state_expired_message(std::string_view seconds) {
    return "The approval request expired (after " + std::string(seconds) +
           " s); nothing was written. Call the tool again without requestState to ask anew.";
}

std::string request_state_not_ours_message() {
    return "Refused: requestState was not issued by this server or was altered; nothing was written. "
           "Call the tool again without requestState and inputResponses.";
}

std::string request_state_other_call_message() {
    return "Refused: requestState belongs to a different tool call (other tool or arguments); nothing was "
           "written. Retry with exactly the arguments of the call that asked, or call again without requestState.";
}

std::string changed_since_asked_note() { return "(Changed on disk since approval was asked; this is the new change.)"; }

std::string approval_used_message() {
    return "Refused: the approval in this requestState was already used for a write, and an "
           "approval is good for one write; nothing was written. Call the tool again without "
           "requestState and inputResponses to ask the user anew.";
}

std::string too_many_approvals_remembered_message(std::string_view seconds) {
    return "Refused: too many approvals given in the last " + std::string(seconds) +
           " s are still remembered (so that none is used twice); nothing was written. "
           "Try again once they expire.";
}

std::string review_expired_note(std::string_view title, std::string_view id, long long seconds) {
    return "The user did not review " + std::string(title) + " (" + std::string(id) + ") within " +
           std::to_string(seconds) + " s, so it counts as rejected: it was not written.";
}

std::string too_many_pending_reviews_message(std::size_t pending, std::size_t max_count, std::size_t max_mib) {
    return "Refused: " + std::to_string(pending) + " changes already await the user's review in the view (at most " +
           std::to_string(max_count) + ", " + std::to_string(max_mib) +
           " MiB of arguments); nothing was written. Ask the user to apply or reject them first, then call again.";
}

std::string no_pending_review_message(std::string_view id, bool decided) {
    return decided ? "Refused: the change " + std::string(id) +
                         " was already decided (or expired unanswered); nothing was written."
                   : "Refused: no change " + std::string(id) + " awaits review in this session; nothing was written.";
}

std::string review_token_mismatch_message(std::string_view id) {
    return "Refused: this decision does not carry the token the review view was given for " + std::string(id) +
           ", so it did not come from the view; nothing was written.";
}

// Declared in approval_form.hpp, beside the answer it reads.
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
            why = "The client answered the approval form for " + what +
                  " without a decision (only an explicit Apply writes).";
            break;
        default: why = "The change was not approved."; break;
    }
    std::string out = why + " Nothing was written.";
    if (!answer.feedback.empty()) out += "\nFeedback from the user: " + answer.feedback;
    if (!maybe_unattended) {
        if (answer.feedback.empty()) out += " Ask the user what they want changed, or propose a different change.";
        return out;
    }
    out +=
        "\nEither a person dismissed the form, or no form was shown at all: hosts running without a person "
        "(such as `claude -p` and `codex exec`) answer approval forms by themselves. In an unattended run, "
        "retrying will not help; the ways out are to start mcp-edit with `--approval auto` in the host's MCP server "
        "configuration (changes are then written without asking), or, in Claude Code, to add an `Elicitation` hook "
        "that answers the form with {\"decision\": \"apply\"}. Until then, `dry_run: true` shows a change without "
        "writing it. If a person is there, ask them whether to apply the change.";
    return out;
}

}  // namespace server
