// The approval every write passes: what is asked (ApprovalRequest), what comes back
// (ApprovalDecision), and the gate between them. The gate itself lives in the server, which knows
// the protocol; tools only pass an "input required" answer back, never look into it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include "base/error_reason.hpp"
#include "text/bytes/spliced_bytes.hpp"

namespace tools {

// What the human (or the policy) is asked to allow: one change of one or more files.
struct ApprovalRequest {
    std::string tool;
    // Why the same change is asked again ("merged with a change on disk"); "" the first time.
    std::string asked_again_because;
    std::vector<std::string> paths;  // as shown (relative to the root)
    std::size_t additions = 0;
    std::size_t removals = 0;
    // Said first in the form's first line and the view's title: "removes 412 of 480 lines" when
    // the change removes most of a file (ShownDiff::headline); "" for most changes.
    std::string headline;
    // The files written in an encoding other than UTF-8, whose diff is shown as UTF-8 text: "in gbk"
    // (one file), "a.py in gbk, b.txt in utf-16le"; "" for most changes. Said in the form's first
    // line and the view's title.
    std::string encodings;
    std::string diff;  // the whole diff text; the form cuts it to a readable length
    // Each file's bytes before and after (nullptr: absent before / deleted after), valid while
    // the gate runs; an approval that outlives the call (2026-07-28) binds their SHA-256.
    struct Image {
        std::string real_path;
        const std::string* before = nullptr;
        std::optional<text::ByteParts> after;  // as parts: an edit of a big file is not joined
    };
    std::vector<Image> images;
    // Called by a gate right before it waits for a human (an open form), so that reads of these
    // files stop queueing behind the change (FileLanes::let_reads_pass). Unset: nothing to do.
    std::function<void()> waiting_for_human;
};

// Who allowed a change; written into results as "user", "session" or "policy".
enum class ApprovalSource { user, session, policy };

constexpr std::string_view to_string(ApprovalSource source) {
    switch (source) {
        case ApprovalSource::user: return "user";
        case ApprovalSource::session: return "session";
        case ApprovalSource::policy: return "policy";
    }
    return "policy";
}

// The server's question back to the client when the answer must come in a later request
// (protocol 2026-07-28's input_required): the whole result the call answers with, which the
// server's gate builds; tools only pass it on, never look into it.
struct InputRequired {
    nlohmann::json result;
};
using PendingInput = std::shared_ptr<const InputRequired>;

// The key of the review view's payload in a result's _meta (ui/README.md).
inline constexpr const char* review_meta_key = "mcp-edit/review";

struct ApprovalDecision {
    // awaiting_review: nothing is written now; the change is shown in the client's review view
    // (MCP Apps), where the human decides later, and the call answers with what would change.
    enum class Kind { approved, rejected, input_required, awaiting_review } kind = Kind::rejected;
    ApprovalSource approval = ApprovalSource::policy;  // approved: who allowed it
    // rejected: the error for the model; approved: a note ("" when none); awaiting_review: the
    // result's first sentence, saying nothing was written yet and where the human decides.
    std::string message;
    base::ErrorReason reason = base::ErrorReason::rejected;  // rejected: why (rejected, cancelled, timeout, ...)
    std::string feedback;                                    // what the human wrote for the agent, if anything
    PendingInput input_required;                             // input_required: what to answer the call with instead
    // For a client that renders the review view: what the view shows of this change (the result's
    // _meta["mcp-edit/review"], see ui/README.md); null otherwise. Never shown to the model.
    nlohmann::json view;
};

using ApprovalGate = std::function<asio::awaitable<ApprovalDecision>(const ApprovalRequest&)>;

}  // namespace tools
