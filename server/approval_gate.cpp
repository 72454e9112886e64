// Approvals: the policy first, then the human by the era's means (elicitation or input_required).
#include "server/approval_gate.hpp"

#include <chrono>

#include "os/hash.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"

namespace server {

using Json = nlohmann::json;

bool client_can_elicit(const Json& capabilities) {
    const auto e = capabilities.find("elicitation");
    if (e == capabilities.end() || !e->is_object()) return false;
    // `elicitation: {}` means form mode; otherwise it must list `form`.
    return e->empty() || e->contains("form");
}

bool client_renders_view(const Json& capabilities) {
    const auto extensions = capabilities.find("extensions");
    if (extensions == capabilities.end() || !extensions->is_object()) return false;
    const auto ui = extensions->find("io.modelcontextprotocol/ui");
    if (ui == extensions->end() || !ui->is_object()) return false;
    const auto types = ui->find("mimeTypes");
    if (types == ui->end() || !types->is_array()) return false;
    for (const auto& type : *types)
        if (type.is_string() && type.get<std::string>() == "text/html;profile=mcp-app") return true;
    return false;
}

bool view_is_gate(const Config& config, const Json& capabilities) {
    if (!client_renders_view(capabilities)) return false;
    return config.approval_ui == ApprovalUi::view || !client_can_elicit(capabilities);
}

Json review_payload(std::string_view state, std::string_view tool, std::string title, std::size_t additions,
                    std::size_t removals, std::string_view diff, bool diff_truncated, Json undo) {
    constexpr std::size_t max_diff_bytes = 4u << 20;
    if (diff.size() > max_diff_bytes) {
        diff = diff.substr(0, max_diff_bytes);
        diff = diff.substr(0, diff.rfind('\n') + 1);  // whole lines (cut lines of one 4 MiB line: none)
        diff_truncated = true;
    }
    Json::object_t view;
    view.emplace("state", state);
    view.emplace("tool", tool);
    view.emplace("title", std::move(title));
    view.emplace("additions", additions);
    view.emplace("removals", removals);
    view.emplace("diff", std::string(diff));
    view.emplace("diff_truncated", diff_truncated);
    if (!undo.is_null()) view.emplace("undo", std::move(undo));
    return view;
}

std::string Approvals::timeout_seconds() const {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(config_.approval_timeout).count());
}

namespace {

tools::ApprovalDecision approved(tools::ApprovalSource source, std::string note = {}) {
    tools::ApprovalDecision d;
    d.kind = tools::ApprovalDecision::Kind::approved;
    d.approval = source;
    d.message = std::move(note);
    return d;
}

tools::ApprovalDecision refused(std::string message, base::ErrorReason reason) {
    tools::ApprovalDecision d;
    d.message = std::move(message);
    d.reason = reason;
    return d;
}

// What the review view shows of a change, with Undo offered for each of its files.
Json view_payload(const tools::ApprovalRequest& ask, std::string_view state) {
    Json undo = Json::array();
    for (const auto& image : ask.images) undo.push_back(image.real_path);
    return review_payload(state, ask.tool, change_title(ask), ask.additions, ask.removals, ask.diff, false,
                          std::move(undo));
}

tools::ApprovalDecision approved_in_view(tools::ApprovalSource source, const tools::ApprovalRequest& ask,
                                         std::string_view state) {
    tools::ApprovalDecision d = approved(source);
    d.view = view_payload(ask, state);
    d.view["approval"] = tools::to_string(source);
    return d;
}

}  // namespace

std::string change_title(const tools::ApprovalRequest& ask) {
    // First what a change that removes most of a file removes: "[removes 412 of 480 lines] write of a.py".
    const std::string first = ask.headline.empty() ? std::string() : "[" + ask.headline + "] ";
    if (ask.paths.size() == 1) return first + ask.tool + " of " + ask.paths.front();
    return first + ask.tool + " of " + std::to_string(ask.paths.size()) + " files";
}

tools::ApprovalGate Approvals::gate(Call call) {
    return [this, call = std::move(call)](const tools::ApprovalRequest& ask) {
        if (call.confirming) return by_view_decision(ask, call);
        if (view_is_gate(config_, call.envelope->capabilities)) return by_view(ask, call);
        return call.envelope->modern() ? by_input_required(ask, call) : by_elicitation(ask, call);
    };
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_view(const tools::ApprovalRequest& ask, Call call) {
    // Written at once by policy or "Apply all this session": the view shows what was written.
    if (config_.approval == ApprovalPolicy::automatic)
        co_return approved_in_view(tools::ApprovalSource::policy, ask, "written");
    if (approved_for_session_) co_return approved_in_view(tools::ApprovalSource::session, ask, "written");
    std::vector<std::string> real_paths;
    for (const auto& image : ask.images) real_paths.push_back(image.real_path);
    // One change per file at a time: a second one would be planned on the file as it is on disk,
    // without the first, and whichever was applied last would undo the other's lines.
    if (const PendingReview* waiting = reviews_.covering(real_paths, std::chrono::steady_clock::now()))
        co_return refused("Refused: " + waiting->title + " (" + waiting->id +
                              ") still awaits the user's review in the review view, and this change touches the same "
                              "file; nothing was written. Wait for the user's decision (it reaches you in a message or "
                              "in your next tool result), then call again on the file as it is then.",
                          base::ErrorReason::conflict);
    co_return awaiting_review(ask, call, ask.asked_again_because);
}

tools::ApprovalDecision Approvals::awaiting_review(const tools::ApprovalRequest& ask, const Call& call,
                                                   const std::string& asked_again) {
    PendingReview review;
    review.tool = call.tool;
    review.args = *call.args;
    review.workspace = call.workspace;
    review.images = shown_images(ask);
    review.title = change_title(ask);
    auto kept = reviews_.add(std::move(review), std::chrono::steady_clock::now());
    if (!kept) return refused(std::move(kept).error().message, base::ErrorReason::approval_unavailable);
    const PendingReview& pending = **kept;
    Decision d;
    d.kind = Decision::Kind::awaiting_review;
    d.message = "Not written yet: the user reviews this " + pending.title + " (+" + std::to_string(ask.additions) +
                " -" + std::to_string(ask.removals) + ") in the review view (" + pending.id +
                "); it is written only if they apply it there. Do not repeat the call: their decision comes in a "
                "message or in your next tool result. Until then other changes to " +
                (ask.paths.size() == 1 ? "this file" : "these files") + " are refused.";
    if (!asked_again.empty()) d.message = "(" + asked_again + ") " + d.message;
    d.view = view_payload(ask, "pending");
    d.view["review"] = pending.id;
    d.view["token"] = pending.token;
    d.view["asked_again"] = asked_again;
    return d;
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_view_decision(const tools::ApprovalRequest& ask, Call call) {
    const PendingReview& shown = *call.confirming;
    // Written only if these are exactly the bytes the user saw, against the files as they were.
    if (call.tool == shown.tool && shown_images(ask) == shown.images) {
        const bool for_session = call.answer.kind == ApprovalAnswer::Kind::apply_session;
        if (for_session) approved_for_session_ = true;
        Decision d = approved_in_view(for_session ? tools::ApprovalSource::session : tools::ApprovalSource::user, ask,
                                      "applied");
        d.feedback = call.answer.feedback;
        co_return d;
    }
    co_return awaiting_review(ask, call,
                              ask.asked_again_because.empty()
                                  ? "the file changed after the user saw the change: this is the change as it would be "
                                    "written now"
                                  : ask.asked_again_because + ", after the user saw the change");
}

std::vector<std::string> Approvals::take_review_notes() {
    std::vector<std::string> notes = reviews_.take_expired_notes(std::chrono::steady_clock::now());
    for (auto& note : review_notes_) notes.push_back(std::move(note));
    review_notes_.clear();
    return notes;
}

void Approvals::note_review(std::string sentence) {
    review_notes_.push_back(std::move(sentence));
    if (review_notes_.size() > 16) review_notes_.erase(review_notes_.begin());
}

std::optional<tools::ApprovalDecision> Approvals::without_asking(const Call& call) const {
    if (config_.approval == ApprovalPolicy::automatic) return approved(tools::ApprovalSource::policy);
    if (approved_for_session_) return approved(tools::ApprovalSource::session);
    if (call.can_ask()) return std::nullopt;
    if (config_.approval == ApprovalPolicy::require)
        return refused(
            "Refused: this server requires the user's approval for every change (--approval require), "
            "and this client can show neither the review view nor an approval form (it declared neither MCP "
            "Apps nor elicitation). Nothing was written. Show the user the change (call again with dry_run: "
            "true for the diff) and let them apply it.",
            base::ErrorReason::approval_unavailable);
    return approved(
        tools::ApprovalSource::policy,
        "(Written without asking: this client can show neither the review view nor approval forms; the server "
        "policy is --approval ask.)");
}

Json Approvals::form(const tools::ApprovalRequest& ask, const Call& call) {
    FormOptions options;
    options.version = call.envelope->version;
    options.feedback_field = call.envelope->quirks.form_feedback_field;
    if (!shows_whole(ask)) options.full_diff_path = diff_spool_.keep(ask.diff);
    return approval_form(ask, options);
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_elicitation(const tools::ApprovalRequest& ask, Call call) {
    if (auto decided = without_asking(call)) co_return std::move(*decided);
    Json request = form(ask, call);
    double ticks = 0;
    auto tick = [&call, &ticks] { call.progress(++ticks, 0, "waiting for the user's approval"); };
    if (ask.waiting_for_human) ask.waiting_for_human();
    RpcPeer::Answer answer =
        co_await peer_.ask("elicitation/create", std::move(request),
                           std::chrono::steady_clock::now() + config_.approval_timeout, call.call, tick);
    if (answer.refused)
        co_return refused(
            "Too many approval requests are waiting for the user; nothing was written. Try again once they are "
            "answered.",
            base::ErrorReason::approval_unavailable);
    if (answer.cancelled)
        co_return refused("Cancelled by the client while waiting for approval; nothing was written.",
                          base::ErrorReason::cancelled);
    if (answer.timed_out)
        co_return refused("No answer to the approval request within " + timeout_seconds() +
                              " s, so it counts as rejected: nothing was written. Ask the user, then call again.",
                          base::ErrorReason::timeout);
    if (!answer.malformed.empty())
        co_return refused("The client's answer to the approval form is malformed (" + answer.malformed +
                              "), so it was not read and nothing was written. Call the tool again to ask anew.",
                          base::ErrorReason::approval_unavailable);
    if (const Json* result = protocol::member(*answer.response, "result"))
        co_return decide(read_approval_answer(*result), ask);
    const Json* error = protocol::member(*answer.response, "error");
    co_return refused("The client could not show the approval form (" +
                          (error ? protocol::string_member(*error, "message") : std::nullopt).value_or("error") +
                          "); nothing was written.",
                      base::ErrorReason::approval_unavailable);
}

// Multi Round-Trip Requests: the first call answers input_required with a signed requestState;
// the retry carries the user's answer and the state back.
asio::awaitable<tools::ApprovalDecision> Approvals::by_input_required(const tools::ApprovalRequest& ask, Call call) {
    if (auto decided = without_asking(call)) co_return std::move(*decided);
    const Json request_form = form(ask, call);
    ApprovalBinding binding{call.tool, canonical_digest(*call.args), Json::object(), Json::object()};
    for (const auto& image : ask.images) {
        binding.pre_images[image.real_path] = image.before ? os::sha256_hex(*image.before) : std::string("absent");
        binding.post_images[image.real_path] =
            image.after ? os::sha256_hex(image.after->span()) : std::string("deleted");
    }
    const auto now = std::chrono::system_clock::now();
    auto ask_again = [&](const std::string& why) {
        Decision again;
        again.kind = Decision::Kind::input_required;
        Json shown = request_form;
        // On the first line, which every host shows.
        if (!why.empty()) shown["message"] = why + " " + shown["message"].get<std::string>();
        again.input_required = std::make_shared<const tools::InputRequired>(tools::InputRequired{
            {{"resultType", "input_required"},
             {"inputRequests", {{"approval", {{"method", "elicitation/create"}, {"params", shown}}}}},
             {"requestState", signer_.sign(binding, now + config_.approval_timeout)}}});
        return again;
    };
    const RequestEnvelope& envelope = *call.envelope;
    if (!envelope.request_state) co_return ask_again("");
    const auto checked = signer_.verify(*envelope.request_state, now);
    using Verdict = RequestStateSigner::Verdict;
    if (checked.verdict == Verdict::expired)
        co_return refused("The approval request expired (after " + timeout_seconds() +
                              " s); nothing was written. Call the tool again without requestState to ask anew.",
                          base::ErrorReason::timeout);
    if (checked.verdict != Verdict::valid)
        co_return refused(
            "Refused: requestState was not issued by this server or was altered; nothing was written. "
            "Call the tool again without requestState and inputResponses.",
            base::ErrorReason::invalid_arguments);
    if (checked.binding.tool != binding.tool || checked.binding.arguments_digest != binding.arguments_digest)
        co_return refused(
            "Refused: requestState belongs to a different tool call (other tool or arguments); nothing was "
            "written. Retry with exactly the arguments of the call that asked, or call again without requestState.",
            base::ErrorReason::invalid_arguments);
    if (checked.binding.pre_images != binding.pre_images || checked.binding.post_images != binding.post_images)
        co_return ask_again("(Changed on disk since approval was asked; this is the new change.)");
    if (!envelope.approval_response) co_return ask_again("");
    const ApprovalAnswer answer = read_approval_answer(*envelope.approval_response);
    const bool approves =
        answer.kind == ApprovalAnswer::Kind::apply || answer.kind == ApprovalAnswer::Kind::apply_session;
    // Marked here, on the io thread and with no wait since verify(): two retries of one state
    // sent at once cannot both pass.
    if (approves) {
        switch (used_states_.use(checked.nonce, checked.expires, now)) {
            case UsedStates::Use::first: break;
            case UsedStates::Use::again:
                co_return refused(
                    "Refused: the approval in this requestState was already used for a write, and an "
                    "approval is good for one write; nothing was written. Call the tool again without "
                    "requestState and inputResponses to ask the user anew.",
                    base::ErrorReason::invalid_arguments);
            case UsedStates::Use::full:
                co_return refused("Refused: too many approvals given in the last " + timeout_seconds() +
                                      " s are still remembered (so that none is used twice); nothing was written. "
                                      "Try again once they expire.",
                                  base::ErrorReason::approval_unavailable);
        }
    }
    co_return decide(answer, ask);
}

tools::ApprovalDecision Approvals::decide(const ApprovalAnswer& answer, const tools::ApprovalRequest& ask) {
    Decision d;
    d.feedback = answer.feedback;
    if (answer.kind == ApprovalAnswer::Kind::apply || answer.kind == ApprovalAnswer::Kind::apply_session) {
        d.kind = Decision::Kind::approved;
        d.approval =
            answer.kind == ApprovalAnswer::Kind::apply ? tools::ApprovalSource::user : tools::ApprovalSource::session;
        if (answer.kind == ApprovalAnswer::Kind::apply_session) approved_for_session_ = true;
    } else {
        std::string what =
            "this " + ask.tool + " of " + (ask.paths.empty() ? std::string("the file") : ask.paths.front());
        if (!ask.asked_again_because.empty()) what += " (" + ask.asked_again_because + ")";
        d.message = refusal_message(answer, what);
        d.reason =
            answer.kind == ApprovalAnswer::Kind::cancel ? base::ErrorReason::cancelled : base::ErrorReason::rejected;
    }
    return d;
}

}  // namespace server
