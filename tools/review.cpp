// The review view's decision tool, `review`, as the workbench alone answers it: the pending
// changes and their tokens belong to the server's session (server/pending_reviews.hpp), which
// serves every call of `review` itself. A workbench without a session has no view to decide in.
#include "tools/registry.hpp"

namespace tools {

asio::awaitable<ToolResult> run_review(CallContext&, ReviewArgs args) {
    co_return ToolResult::error("Refused: no change " + args.review +
                                    " awaits review here: this server shows no review view to this caller. Nothing was "
                                    "written.",
                                base::ErrorReason::invalid_arguments);
}

}  // namespace tools
