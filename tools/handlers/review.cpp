// The review view's decision tool, `review`, as the workbench alone answers it: the pending
// changes and their tokens belong to the server's session (server/pending_reviews.hpp), which
// serves every call of `review` itself. A workbench without a session has no view to decide in.
#include "tools/handlers/review.hpp"

#include "tools/catalog.hpp"

namespace tools {

asio::awaitable<ToolResult> run_review(CallContext&, ReviewArgs args) {
    co_return ToolResult::error("Refused: no change " + args.review +
                                    " awaits review here: this server shows no review view to this caller. Nothing was "
                                    "written.",
                                base::ErrorReason::invalid_arguments);
}

const ToolSpec& review_tool() {
    static const ToolSpec spec =
        define_tool("review", &run_review,
                    {
                        .kind = ToolKind::review_decision,
                        .safety_arguments = "",
                        .summary = "Apply or reject a change shown in the review view (called by the view)",
                    });
    return spec;
}

}  // namespace tools
