// The approval gate every write of a tools/call passes, one strategy per era: the legacy eras ask
// with an elicitation/create form while the call waits; 2026-07-28 answers input_required with a
// signed requestState and decides when the client retries with the user's answer. Before either,
// the policy (--approval), "Apply and stop asking" and a client that cannot show forms decide.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include "server/approval_form.hpp"
#include "server/config.hpp"
#include "server/diff_spool.hpp"
#include "server/request_state.hpp"
#include "server/rpc_peer.hpp"
#include "server/session_envelope.hpp"
#include "tools/approval.hpp"

namespace server {

// Whether a client's capabilities let it show an approval form (elicitation, form mode).
bool client_can_elicit(const nlohmann::json& capabilities);

class Approvals {
public:
    Approvals(const Config& config, RpcPeer& peer) : config_(config), peer_(peer) {}

    // One tools/call's side of the approval. `args` and `envelope` belong to that call, which
    // outlives its gate: they are referred to, not copied.
    struct Call {
        std::string tool;
        const nlohmann::json* args = nullptr;
        const RequestEnvelope* envelope = nullptr;  // era, version, capabilities, quirks, the retry's answer
        std::shared_ptr<RpcPeer::Call> call;
        std::function<void(double, double, std::string)> progress;
        bool can_ask() const { return client_can_elicit(envelope->capabilities); }  // the client can show a form
    };
    // The gate of one call: by elicitation (legacy eras) or by input_required (2026-07-28).
    // The call's coroutine keeps the session, and so this, alive while the gate runs.
    tools::ApprovalGate gate(Call call);

private:
    using Decision = tools::ApprovalDecision;

    // Decided without the human: by policy, by "stop asking", or because no form can be shown.
    std::optional<Decision> without_asking(const Call& call) const;
    nlohmann::json form(const tools::ApprovalRequest& ask, const Call& call);
    asio::awaitable<Decision> by_elicitation(const tools::ApprovalRequest& ask, Call call);
    asio::awaitable<Decision> by_input_required(const tools::ApprovalRequest& ask, Call call);
    // The human's answer as a decision; "Apply and stop asking" is remembered for the session.
    Decision decide(const ApprovalAnswer& answer, const tools::ApprovalRequest& ask);
    std::string timeout_seconds() const;  // --approval-timeout as the messages say it

    const Config& config_;
    RpcPeer& peer_;
    RequestStateSigner signer_;
    UsedStates used_states_;  // 2026-07-28: an approval is good for one write
    DiffSpool diff_spool_;  // full diffs of large changes, named in their approval forms
    bool approved_for_session_ = false;  // "Apply and stop asking this session"
};

}  // namespace server
