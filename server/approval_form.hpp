// The approval form a human sees (elicitation, form mode) and the reading of their answer.
// The form differs by protocol revision (titled oneOf from 2025-11-25 on; enum + enumNames for
// 2025-06-18); the reading fails closed: only an explicit Apply counts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tools/tool.hpp"

namespace server {

struct FormOptions {
    std::string_view version;  // the client's protocol revision
    // Codex shows fields in name order and cannot submit a form whose last field, a text, is
    // empty: for it the form has no feedback field.
    bool feedback_field = true;
    std::optional<std::string> full_diff_path;  // where the human can read the whole diff
};

// The form's first line: tool, paths, counts, where ("edit crlf.txt: +1 -1 at line 2").
std::string approval_summary(const tools::ApprovalRequest& ask);
// Whether the form can show the change whole within the lines every host renders (one file, at
// most three changed lines); otherwise it names a file with the full diff.
bool shows_whole(const tools::ApprovalRequest& ask);

// The params of an elicitation/create request for `ask`.
nlohmann::json approval_form(const tools::ApprovalRequest& ask, const FormOptions& options);

struct ApprovalAnswer {
    enum class Kind { apply, apply_session, reject, decline, cancel, no_decision } kind = Kind::no_decision;
    std::string feedback;
};

// Reads an ElicitResult ({action, content}). Anything but accept + decision apply/apply_session
// is a refusal of some kind.
ApprovalAnswer read_approval_answer(const nlohmann::json& result);

// The error text for a refusal (nothing written), with the feedback passed on.
std::string refusal_message(const ApprovalAnswer& answer, const std::string& what);

}  // namespace server
