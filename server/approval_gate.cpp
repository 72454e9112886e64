// Approvals: the policy first, then the human by the era's means (elicitation or input_required).
#include "server/approval_gate.hpp"

#include <chrono>

#include "os/hash.hpp"
#include "server/approval_messages.hpp"
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
    // A file in another encoding: its diff is shown as text, and it is written in its own.
    const std::string written = ask.encodings.empty() ? std::string() : " (written " + ask.encodings + ")";
    if (ask.paths.size() == 1) return first + ask.tool + " of " + ask.paths.front() + written;
    return first + ask.tool + " of " + std::to_string(ask.paths.size()) + " files" + written;
}

tools::ApprovalGate Approvals::gate(Asker asker) {
    return [this, asker = std::move(asker)](const tools::ApprovalRequest& ask) {
        if (asker.confirming) return by_view_decision(ask, asker);
        if (view_is_gate(config_, asker.envelope->capabilities)) return by_view(ask, asker);
        return asker.envelope->modern() ? by_input_required(ask, asker) : by_elicitation(ask, asker);
    };
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_view(const tools::ApprovalRequest& ask, Asker asker) {
    // Written at once by policy or "Apply all this session": the view shows what was written.
    if (config_.approval == ApprovalPolicy::automatic)
        co_return approved_in_view(tools::ApprovalSource::policy, ask, "written");
    if (approved_for_session_) co_return approved_in_view(tools::ApprovalSource::session, ask, "written");
    std::vector<std::string> real_paths;
    for (const auto& image : ask.images) real_paths.push_back(image.real_path);
    // One change per file at a time: a second one would be planned on the file as it is on disk,
    // without the first, and whichever was applied last would undo the other's lines.
    if (const PendingReview* waiting = reviews_.covering(real_paths, std::chrono::steady_clock::now()))
        co_return refused(review_pending_for_file_message(waiting->title, waiting->id), base::ErrorReason::conflict);
    co_return awaiting_review(ask, asker, ask.asked_again_because);
}

tools::ApprovalDecision Approvals::awaiting_review(const tools::ApprovalRequest& ask, const Asker& asker,
                                                   const std::string& asked_again) {
    PendingReview review;
    review.tool = asker.tool;
    review.args = *asker.args;
    review.workspace = asker.workspace;
    review.images = shown_images(ask);
    review.title = change_title(ask);
    auto kept = reviews_.add(std::move(review), std::chrono::steady_clock::now());
    if (!kept) return refused(std::move(kept).error().message, base::ErrorReason::approval_unavailable);
    const PendingReview& pending = **kept;
    Decision d;
    d.kind = Decision::Kind::awaiting_review;
    d.message = awaiting_review_message(pending.title, ask.additions, ask.removals, pending.id, ask.paths.size() == 1);
    if (!asked_again.empty()) d.message = "(" + asked_again + ") " + d.message;
    d.view = view_payload(ask, "pending");
    d.view["review"] = pending.id;
    d.view["token"] = pending.token;
    d.view["asked_again"] = asked_again;
    return d;
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_view_decision(const tools::ApprovalRequest& ask, Asker asker) {
    const PendingReview& shown = *asker.confirming;
    // Written only if these are exactly the bytes the user saw, against the files as they were.
    if (asker.tool == shown.tool && shown_images(ask) == shown.images) {
        const bool for_session = asker.answer.kind == ApprovalAnswer::Kind::apply_session;
        if (for_session) approved_for_session_ = true;
        Decision d = approved_in_view(for_session ? tools::ApprovalSource::session : tools::ApprovalSource::user, ask,
                                      "applied");
        d.feedback = asker.answer.feedback;
        co_return d;
    }
    co_return awaiting_review(ask, asker, changed_since_view_reason(ask.asked_again_because));
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

std::optional<tools::ApprovalDecision> Approvals::without_asking(const Asker& asker) const {
    if (config_.approval == ApprovalPolicy::automatic) return approved(tools::ApprovalSource::policy);
    if (approved_for_session_) return approved(tools::ApprovalSource::session);
    if (asker.can_ask()) return std::nullopt;
    if (config_.approval == ApprovalPolicy::require)
        return refused(approval_unavailable_message(), base::ErrorReason::approval_unavailable);
    return approved(tools::ApprovalSource::policy, written_without_asking_note());
}

Json Approvals::form(const tools::ApprovalRequest& ask, const Asker& asker) {
    FormOptions options;
    options.version = asker.envelope->version;
    options.feedback_field = asker.envelope->quirks.form_feedback_field;
    if (!shows_whole(ask)) options.full_diff_path = diff_spool_.keep(ask.diff);
    return approval_form(ask, options);
}

asio::awaitable<tools::ApprovalDecision> Approvals::by_elicitation(const tools::ApprovalRequest& ask, Asker asker) {
    if (auto decided = without_asking(asker)) co_return std::move(*decided);
    Json request = form(ask, asker);
    double ticks = 0;
    auto tick = [&asker, &ticks] { asker.progress(++ticks, 0, "waiting for the user's approval"); };
    if (ask.waiting_for_human) ask.waiting_for_human();
    RpcPeer::Answer answer =
        co_await peer_.ask("elicitation/create", std::move(request),
                           std::chrono::steady_clock::now() + config_.approval_timeout, asker.call, tick);
    if (answer.refused) co_return refused(too_many_waiting_message(), base::ErrorReason::approval_unavailable);
    if (answer.cancelled) co_return refused(cancelled_while_waiting_message(), base::ErrorReason::cancelled);
    if (answer.timed_out) co_return refused(approval_timed_out_message(timeout_seconds()), base::ErrorReason::timeout);
    if (!answer.malformed.empty())
        co_return refused(malformed_answer_message(answer.malformed), base::ErrorReason::approval_unavailable);
    if (const Json* result = protocol::member(*answer.response, "result"))
        co_return decide(read_approval_answer(*result), ask);
    const Json* error = protocol::member(*answer.response, "error");
    const std::string why = (error ? protocol::string_member(*error, "message") : std::nullopt).value_or("error");
    co_return refused(form_not_shown_message(why), base::ErrorReason::approval_unavailable);
}

// Multi Round-Trip Requests: the first call answers input_required with a signed requestState;
// the retry carries the user's answer and the state back.
asio::awaitable<tools::ApprovalDecision> Approvals::by_input_required(const tools::ApprovalRequest& ask, Asker asker) {
    if (auto decided = without_asking(asker)) co_return std::move(*decided);
    const Json request_form = form(ask, asker);
    ApprovalBinding binding{asker.tool, canonical_digest(*asker.args), Json::object(), Json::object()};
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
    const RequestEnvelope& envelope = *asker.envelope;
    if (!envelope.request_state) co_return ask_again("");
    const auto checked = signer_.verify(*envelope.request_state, now);
    using Verdict = RequestStateSigner::Verdict;
    if (checked.verdict == Verdict::expired)
        co_return refused(request_state_expired_message(timeout_seconds()), base::ErrorReason::timeout);
    if (checked.verdict != Verdict::valid)
        co_return refused(request_state_not_ours_message(), base::ErrorReason::invalid_arguments);
    if (checked.binding.tool != binding.tool || checked.binding.arguments_digest != binding.arguments_digest)
        co_return refused(request_state_other_call_message(), base::ErrorReason::invalid_arguments);
    if (checked.binding.pre_images != binding.pre_images || checked.binding.post_images != binding.post_images)
        co_return ask_again(changed_since_asked_note());
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
                co_return refused(approval_used_message(), base::ErrorReason::invalid_arguments);
            case UsedStates::Use::full:
                co_return refused(too_many_approvals_remembered_message(timeout_seconds()),
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
