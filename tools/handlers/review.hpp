// The arguments of `review`, the review view's decision: the session that holds the pending
// changes (server/pending_reviews.hpp) reads them, as the tool does.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tools {

struct ReviewArgs {
    std::string review;    // the pending change's id
    std::string token;     // its single-use token
    std::string decision;  // apply, apply_session or reject
    std::string feedback;  // for the model, with a rejection (or an apply)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReviewArgs, review, token, decision, feedback)

}  // namespace tools
