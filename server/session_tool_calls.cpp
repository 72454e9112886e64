// How the session serves tools/call: each call in its own coroutine, through the workbench's one
// way in (tools::Workbench::call) with a scope that carries the request (cancellation, progress,
// the approval gate) and the session's part (roots, review decisions, the view's payload, notes
// said once); the reply, then the bookkeeping the reply did not need.
#include <memory>
#include <string>
#include <utility>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"
#include "server/session.hpp"
#include "tools/handlers/review.hpp"

namespace server {

namespace {

// What the review view shows of the `changes` result: the session's patch, with Undo per file.
Json session_patch_view(const Json& changes) {
    std::size_t additions = 0, removals = 0;
    Json undo = Json::array();
    for (const auto& file : changes.value("files", Json::array())) {
        additions += file.value("additions", std::size_t{0});
        removals += file.value("removals", std::size_t{0});
        if (const Json* path = protocol::member(file, "file_path"); path && path->is_string()) undo.push_back(*path);
    }
    return review_payload("patch", "changes", "This session's changes", additions, removals, changes.value("patch", ""),
                          changes.value("patch_truncated", false), std::move(undo));
}

// What the review view shows of a dry run: the diff, nothing to decide.
Json dry_run_view(const std::string& tool, const Json& report) {
    std::string diff = report.value("diff", "");
    for (const auto& file : report.value("files", Json::array())) diff += file.value("diff", "");
    return review_payload("dry_run", tool, tool + " (dry run)", report.value("additions", std::size_t{0}),
                          report.value("removals", std::size_t{0}), diff, report.value("diff_truncated", false));
}

}  // namespace

void Session::call_tool(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply) {
    asio::co_spawn(io_, run_tool_call(shared_from_this(), std::move(request), envelope, std::move(reply)),
                   asio::detached);
}

// `keep_alive` holds the session (and what the gate and roots refer to) until the call ends.
asio::awaitable<void> Session::run_tool_call([[maybe_unused]] std::shared_ptr<Session> keep_alive,
                                             protocol::Request request, RequestEnvelope envelope, Reply reply) {
    auto params = tool_call_params(request.params);
    if (!params) {
        reply.error(protocol::invalid_params, params.error());
        co_return;
    }
    // Counts this call as in flight until its reply is out (see CallScope::alone).
    struct InFlight {
        std::size_t& count;
        bool ended = false;
        void end() {
            if (!ended) --count;
            ended = true;
        }
        ~InFlight() { end(); }
    } in_flight{++tool_calls_};
    // Named first: GCC 12 destroys a temporary argument of a coroutine inside co_await twice.
    tools::CallScope scope = tool_call_scope(envelope, reply.call());
    tools::CallOutcome outcome =
        co_await workbench_.call(std::move(params->name), std::move(params->arguments), std::move(scope));
    if (outcome.invalid_params) {
        reply.error(protocol::invalid_params, *outcome.invalid_params);
        co_return;
    }
    const protocol::Era era = envelope.era;
    const OversizedFacts oversized = oversized_facts(outcome.tool, outcome.kind, outcome.result);
    reply.result(call_tool_result(outcome.result, era), [&oversized, era](std::size_t bytes) {
        return oversized_result(oversized, bytes, RpcPeer::max_reply_bytes, era);
    });
    if (outcome.result.input_required) co_return;

    in_flight.end();  // a call that comes in meanwhile is alone (see CallScope::alone)
    if (outcome.result.after_reply) {
        // Let the writer put the reply out first (it was woken before this resumes), then the
        // bookkeeping the reply did not need; what it holds (the lane) is released here, on the
        // io thread.
        co_await asio::post(io_, asio::use_awaitable);
        try {
            co_await outcome.result.after_reply();
        } catch (const std::exception& e) {
            base::log::error("{}: bookkeeping after the write failed: {}", outcome.tool, e.what());
        }
        outcome.result.after_reply = nullptr;
    }
}

tools::CallScope Session::call_scope(const RequestEnvelope& envelope, const std::shared_ptr<RpcPeer::Call>& rpc_call,
                                     const PendingReview* confirming, ApprovalAnswer answer) {
    tools::CallScope scope;
    scope.cancelled = rpc_call->cancelled;
    if (auto progress = progress_reporter(envelope)) scope.progress = std::move(progress);
    scope.alone = [this] { return tool_calls_ == 1; };
    scope.max_result_text = envelope.quirks.result_text_budget;
    scope.result_view = envelope.quirks.result_view;
    scope.approval = [this, &envelope, rpc_call, confirming, answer = std::move(answer)](
                         const std::string& tool, const Json& arguments, const tools::ProgressReport& progress,
                         std::shared_ptr<const os::Workspace> roots) {
        Approvals::Asker asker;
        asker.tool = tool;
        asker.args = &arguments;
        asker.envelope = &envelope;
        asker.call = rpc_call;
        asker.progress = progress;
        asker.workspace = std::move(roots);
        asker.confirming = confirming;
        asker.answer = answer;
        return approvals_.gate(std::move(asker));
    };
    return scope;
}

tools::CallScope Session::tool_call_scope(const RequestEnvelope& envelope, std::shared_ptr<RpcPeer::Call> rpc_call) {
    tools::CallScope scope = call_scope(envelope, rpc_call);
    // The call's roots, asked of the client at most once: for the refusal of a server without a
    // usable root (without --root, the client's roots may still supply a workspace; client roots
    // never widen a --root that was given), else once the arguments are checked.
    const bool client_has_roots = envelope.era == protocol::Era::legacy && envelope.capabilities.contains("roots");
    auto asked = std::make_shared<std::shared_ptr<const os::Workspace>>();
    scope.roots = [this, client_has_roots, rpc_call, asked]() -> asio::awaitable<std::shared_ptr<const os::Workspace>> {
        if (!*asked) *asked = co_await roots_.for_call(client_has_roots, rpc_call);
        co_return *asked;
    };
    if (!config_.misconfiguration.empty())
        scope.refusal = [this, client_has_roots, rpc_call,
                         asked]() -> asio::awaitable<std::optional<tools::ToolResult>> {
            if (!config_.roots_given) {
                *asked = co_await roots_.for_call(client_has_roots, rpc_call);
                if (!(*asked)->roots().empty()) co_return std::nullopt;
            }
            co_return tools::ToolResult::error(config_.misconfiguration, base::ErrorReason::no_root);
        };
    scope.decide_review = [this, &envelope, rpc_call](const Json& arguments, std::shared_ptr<const os::Workspace>) {
        return decide_review(arguments, envelope, rpc_call);
    };
    scope.finish = [this, &envelope, asked](const std::string& tool, tools::ToolKind kind, tools::ToolResult& outcome) {
        if (!outcome.is_error && outcome.meta.is_null() && outcome.structured.is_object() &&
            client_renders_view(envelope.capabilities)) {
            if (kind == tools::ToolKind::session_patch)
                outcome.meta = {{tools::review_meta_key, session_patch_view(outcome.structured)}};
            else if (outcome.structured.value("dry_run", false))
                outcome.meta = {{tools::review_meta_key, dry_run_view(tool, outcome.structured)}};
        }
        if (outcome.input_required) return;
        // What the user decided in the review view since the model's last call, said once.
        if (kind != tools::ToolKind::review_decision)
            for (const auto& note : approvals_.take_review_notes()) add_note(outcome, note);
        // Said once, to the first call the client's roots affect.
        if (*asked) add_note(outcome, roots_.take_note());
    };
    return scope;
}

asio::awaitable<tools::ToolResult> Session::decide_review(const Json& args, const RequestEnvelope& envelope,
                                                          std::shared_ptr<RpcPeer::Call> rpc_call) {
    const auto asked = args.get<tools::ReviewArgs>();
    auto taken = approvals_.take_review(asked.review, asked.token);
    if (!taken) co_return tools::ToolResult::error(std::move(taken).error());
    const PendingReview review = std::move(taken).value();
    const auto decided = [](const char* outcome, std::string summary) {
        tools::ToolResult result;
        result.text = summary;
        result.structured = {{"outcome", outcome}, {"summary", std::move(summary)}};
        return result;
    };
    if (asked.decision == "reject") {
        std::string said =
            "In the review view the user rejected " + review.title + " (" + review.id + "); nothing was written.";
        if (!asked.feedback.empty()) said += " Their feedback: " + asked.feedback;
        approvals_.note_review(said);
        co_return decided("rejected", said);
    }
    // Apply: the same call again, planned on the files as they are now, in the roots it was asked
    // in; its gate writes it only if that is exactly the change shown, else shows the new one.
    ApprovalAnswer answer;
    answer.kind = asked.decision == "apply_session" ? ApprovalAnswer::Kind::apply_session : ApprovalAnswer::Kind::apply;
    answer.feedback = asked.feedback;
    tools::CallScope scope = call_scope(envelope, rpc_call, &review, std::move(answer));
    scope.roots = [roots = review.workspace]() -> asio::awaitable<std::shared_ptr<const os::Workspace>> {
        co_return roots;
    };
    tools::CallOutcome again = co_await workbench_.call(review.tool, review.args, std::move(scope));
    tools::ToolResult outcome = std::move(again.result);
    if (again.invalid_params) outcome.reason = base::ErrorReason::internal;
    if (outcome.is_error) {
        approvals_.note_review("In the review view the user applied " + review.title + " (" + review.id +
                               "), but it was not written: " + outcome.text);
        co_return outcome;
    }
    const Json* approval = protocol::member(outcome.structured, "approval");
    const bool shown_again = approval && approval->is_string() && approval->get<std::string>() == "pending";
    const Json* summary = protocol::member(outcome.structured, "summary");
    std::string said = summary && summary->is_string() ? summary->get<std::string>() : outcome.text;
    if (!shown_again) approvals_.note_review("In the review view the user applied " + review.id + ": " + said);
    tools::ToolResult result = decided(shown_again ? "shown_again" : "applied", std::move(said));
    result.text = std::move(outcome.text);  // the summary and the diff
    result.meta = std::move(outcome.meta);
    result.after_reply = std::move(outcome.after_reply);
    co_return result;
}

// Reports progress as notifications/progress when the client gave a progressToken; else nullptr.
tools::ProgressReport Session::progress_reporter(const RequestEnvelope& envelope) {
    if (!envelope.progress_token) return nullptr;
    std::weak_ptr<Session> weak = weak_from_this();
    return [this, weak, token = *envelope.progress_token, last = std::make_shared<double>(-1)](
               double progress, double total, std::string text) {
        asio::post(io_, [weak, token, last, progress, total, text = std::move(text)] {
            auto self = weak.lock();
            if (!self || progress <= *last) return;
            *last = progress;
            Json p = {{"progressToken", token}, {"progress", progress}};
            if (total > 0) p["total"] = total;
            if (!text.empty()) p["message"] = text;
            self->peer_->notify("notifications/progress", std::move(p));
        });
    };
}

}  // namespace server
