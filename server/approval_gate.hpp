// The approval gate every write of a tools/call passes, one strategy per era: the legacy eras ask
// with an elicitation/create form while the call waits; 2026-07-28 answers input_required with a
// signed requestState and decides when the client retries with the user's answer. Before either,
// the policy (--approval), "Apply and stop asking" and a client that cannot show forms decide.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include "server/approval_form.hpp"
#include "server/config.hpp"
#include "server/diff_spool.hpp"
#include "server/pending_reviews.hpp"
#include "server/request_state.hpp"
#include "server/rpc_peer.hpp"
#include "server/session_envelope.hpp"
#include "tools/pipeline/approval.hpp"

namespace server {

// Whether a client's capabilities let it show an approval form (elicitation, form mode).
bool client_can_elicit(const nlohmann::json& capabilities);
// Whether a client's capabilities say it renders MCP Apps views (the extension
// io.modelcontextprotocol/ui with the mime type text/html;profile=mcp-app).
bool client_renders_view(const nlohmann::json& capabilities);
// Whether the review view is the gate of this client's changes: it renders views, and either
// cannot show forms or --approval-ui prefers the view.
bool view_is_gate(const Config& config, const nlohmann::json& capabilities);
// The review view's payload (ui/README.md) for `state`, without a decision's parts (review, token,
// asked_again, approval): one shape for changes, dry runs and the session patch. The diff is cut
// at a line past 4 MiB (diff_truncated).
nlohmann::json review_payload(std::string_view state, std::string_view tool, std::string title, std::size_t additions,
                              std::size_t removals, std::string_view diff, bool diff_truncated,
                              nlohmann::json undo = nullptr);
// "edit of src/x.py", "apply_diff of 3 files": a change as the view and the model's notes name it.
std::string change_title(const tools::ApprovalRequest& ask);

class Approvals {
public:
    Approvals(const Config& config, RpcPeer& peer) : config_(config), peer_(peer) {}

    // The tools/call that asks for approval, as the gate sees it: its tool, arguments, envelope,
    // JSON-RPC request and roots, and in the review view the change shown and the human's answer.
    // `args` and `envelope` belong to that call, which outlives its gate: referred to, not copied.
    struct Asker {
        std::string tool;
        const nlohmann::json* args = nullptr;
        const RequestEnvelope* envelope = nullptr;  // era, version, capabilities, quirks, the retry's answer
        std::shared_ptr<RpcPeer::Call> call;
        tools::ProgressReport progress;
        std::shared_ptr<const os::Workspace> workspace;  // the call's roots (a pending review keeps them)
        // Apply pressed in the review view: the change that was shown, and the human's answer.
        const PendingReview* confirming = nullptr;
        ApprovalAnswer answer;
        bool can_ask() const { return client_can_elicit(envelope->capabilities); }  // the client can show a form
    };
    // The gate of one call: by the review view (clients that render MCP Apps), by elicitation
    // (legacy eras) or by input_required (2026-07-28). The call's coroutine keeps the session, and
    // so this, alive while the gate runs.
    tools::ApprovalGate gate(Asker asker);

    // The decision tool's side: takes the pending change `id` out if `token` is its own.
    base::Result<PendingReview> take_review(const std::string& id, const std::string& token) {
        return reviews_.take(id, token, std::chrono::steady_clock::now());
    }
    // What the model should hear of reviews decided or expired since its last call (said once).
    std::vector<std::string> take_review_notes();
    void note_review(std::string sentence);

private:
    using Decision = tools::ApprovalDecision;

    // Decided without the human: by policy, by "stop asking", or because no form can be shown.
    std::optional<Decision> without_asking(const Asker& asker) const;
    nlohmann::json form(const tools::ApprovalRequest& ask, const Asker& asker);
    asio::awaitable<Decision> by_elicitation(const tools::ApprovalRequest& ask, Asker asker);
    asio::awaitable<Decision> by_input_required(const tools::ApprovalRequest& ask, Asker asker);
    // The review view: the change kept as pending and shown; nothing written now.
    asio::awaitable<Decision> by_view(const tools::ApprovalRequest& ask, Asker asker);
    // Apply in the view: approved when the change is still exactly what was shown, else shown again.
    asio::awaitable<Decision> by_view_decision(const tools::ApprovalRequest& ask, Asker asker);
    Decision awaiting_review(const tools::ApprovalRequest& ask, const Asker& asker, const std::string& asked_again);
    // The human's answer as a decision; "Apply and stop asking" is remembered for the session.
    Decision decide(const ApprovalAnswer& answer, const tools::ApprovalRequest& ask);
    std::string timeout_seconds() const;  // --approval-timeout as the messages say it

    const Config& config_;
    RpcPeer& peer_;
    RequestStateSigner signer_;
    UsedStates used_states_;                            // 2026-07-28: an approval is good for one write
    DiffSpool diff_spool_;                              // full diffs of large changes, named in their approval forms
    bool approved_for_session_ = false;                 // "Apply and stop asking this session"
    PendingReviews reviews_{config_.approval_timeout};  // the view's changes awaiting a decision
    std::vector<std::string> review_notes_;             // for the model's next call: decisions made in the view
};

}  // namespace server
