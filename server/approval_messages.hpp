// What the approval gate tells the model (server/approval_gate.cpp): why a change waits for the
// review view, why it was refused or not asked for, and what to call next. The gate decides; these
// word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace server {

// ---- the review view ----
// Another change of the same file (`title`, review `id`) still awaits the user's decision.
std::string review_pending_for_file_message(std::string_view title, std::string_view id);
// The change was kept for the review view (`id`); `one_file`: the change shows one file.
std::string awaiting_review_message(std::string_view title, std::size_t additions, std::size_t removals,
                                    std::string_view id, bool one_file);
// Why the change is shown again after Apply: the files changed since the user saw it, and
// `asked_again_because` (the transaction's own reason, or "").
std::string changed_since_view_reason(const std::string& asked_again_because);

// ---- without asking ----
// --approval require, and the client can show neither the view nor a form.
std::string approval_unavailable_message();
// --approval ask, and the client can show neither: the change was written, and this says why.
std::string written_without_asking_note();

// ---- elicitation ----
std::string too_many_waiting_message();
std::string cancelled_while_waiting_message();
std::string approval_timed_out_message(std::string_view seconds);
std::string malformed_answer_message(std::string_view malformed);
std::string form_not_shown_message(std::string_view error);

// The refusal after the approval form's answer did not apply: server/approval_form.hpp's
// refusal_message (it reads ApprovalAnswer), defined in approval_messages.cpp.

// ---- input_required (requestState) ----
std::string request_state_expired_message(std::string_view seconds);
std::string request_state_not_ours_message();
std::string request_state_other_call_message();
// The first line of a form asked again because the files changed since it was first asked.
std::string changed_since_asked_note();
std::string approval_used_message();
std::string too_many_approvals_remembered_message(std::string_view seconds);

// ---- the review view's pending changes (pending_reviews.cpp) ----
std::string review_expired_note(std::string_view title, std::string_view id, long long seconds);
std::string too_many_pending_reviews_message(std::size_t pending, std::size_t max_count, std::size_t max_mib);
// `decided`: the change was decided or expired; else no such change awaits review.
std::string no_pending_review_message(std::string_view id, bool decided);
std::string review_token_mismatch_message(std::string_view id);

}  // namespace server
