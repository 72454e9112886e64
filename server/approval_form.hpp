// The approval form a human sees (elicitation, form mode) and the reading of their answer.
// The form differs by protocol revision (titled oneOf from 2025-11-25 on; enum + enumNames for
// 2025-06-18); the reading fails closed: only an explicit Apply counts.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tools/tool.hpp"

namespace server {

// The params of an elicitation/create request for `ask`, for clients speaking `version`.
nlohmann::json approval_form(const tools::ApprovalRequest& ask, std::string_view version);

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
