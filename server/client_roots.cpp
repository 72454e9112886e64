// ClientRoots: roots/list out to the client, one at a time, and what its answer makes of --root.
#include "server/client_roots.hpp"

#include <vector>

#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>

#include "base/log.hpp"

namespace server {

ClientRoots::ClientRoots(asio::io_context& io, RpcPeer& peer, const os::Workspace& workspace, const Config& config)
    : peer_(peer), workspace_(workspace), config_(config), fetched_(io, asio::steady_timer::time_point::max()) {}

void ClientRoots::changed() {
    stale_ = true;
    ++generation_;  // a roots/list out now may answer with the old roots: asked again next call
}

asio::awaitable<std::shared_ptr<const os::Workspace>> ClientRoots::for_call(bool client_has_roots,
                                                                            std::shared_ptr<RpcPeer::Call> call) {
    if (!client_has_roots) co_return base();
    // A call that finds a roots/list out waits for it; if that one is abandoned (its call was
    // cancelled), the next round asks anew. Four rounds at most.
    for (int round = 0; round < 4; ++round) {
        if (!stale_ && client_workspace_) co_return client_workspace_;
        if (!fetching_) co_return co_await fetch(call);
        co_await wait_for_fetch(call);
        if (call && call->cancelled->load()) break;
    }
    co_return client_workspace_ ? client_workspace_ : base();
}

asio::awaitable<std::shared_ptr<const os::Workspace>> ClientRoots::fetch(std::shared_ptr<RpcPeer::Call> call) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    const std::uint64_t generation = generation_;
    fetching_ = true;
    // Waiting calls give up a little after this roots/list must have ended anyway.
    fetched_.expires_at(deadline + std::chrono::seconds(1));
    RpcPeer::Answer answer = co_await peer_.ask("roots/list", Json::object(), deadline, call);
    fetching_ = false;
    fetched_.cancel();
    if (answer.cancelled || answer.refused) co_return base();  // nothing learnt: the next call asks again

    std::vector<std::string> uris;
    const Json roots =
        answer.response && answer.response->contains("result") && (*answer.response)["result"].is_object()
            ? (*answer.response)["result"].value("roots", Json())
            : Json();
    if (!roots.is_array()) {
        // Asked again only after notifications/roots/list_changed: a client that cannot answer
        // should not cost every call a wait.
        base::log::warn("roots/list got no usable answer ({}); using {} until the client's roots change",
                        answer.timed_out ? "no reply in 10 s" : "an error or malformed reply",
                        config_.roots_given ? "--root" : "the working directory");
    } else {
        // As many as the message held (bounded by --max-message-size); the workspace examines
        // the first os::Workspace::max_client_roots.
        for (const auto& root : roots)
            if (root.is_object() && root.contains("uri") && root["uri"].is_string())
                uris.push_back(root["uri"].get<std::string>());
    }
    auto outcome = workspace_.with_client_roots(uris, config_.roots_given);
    client_workspace_ = std::make_shared<const os::Workspace>(std::move(outcome.workspace));
    stale_ = generation != generation_;
    if (outcome.note != last_note_) {
        if (!outcome.note.empty()) base::log::warn("{}", outcome.note);
        note_ = outcome.note;
        last_note_ = outcome.note;
    }
    base::log::info("client roots: the workspace is {} ({})",
                    client_workspace_->roots().empty() ? std::string("(nothing)")
                                                       : os::Workspace::list_text(client_workspace_->roots()),
                    client_workspace_->origin().empty() ? std::string("--root") : client_workspace_->origin());
    co_return client_workspace_;
}

asio::awaitable<void> ClientRoots::wait_for_fetch(std::shared_ptr<RpcPeer::Call> call) {
    // A cancelled call (or the end of input) wakes every waiting call; the others wait again.
    // The call's coroutine keeps the session, and so this, alive while the hook is set.
    if (call) call->on_cancel = [this] { fetched_.cancel(); };
    while (fetching_ && !(call && call->cancelled->load())) {
        asio::error_code ec;
        co_await fetched_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (!ec) break;  // past the roots/list's own deadline: stop waiting
    }
    if (call) call->on_cancel = nullptr;
}

}  // namespace server
