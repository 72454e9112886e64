// The workspace a tools/call works in, as the client's roots shape it (legacy eras): --root,
// narrowed by the roots the client declared (or, started without --root, the client's roots).
// One roots/list at a time: calls that come while it is out wait for its answer; asked again
// after notifications/roots/list_changed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>

#include "os/workspace.hpp"
#include "server/config.hpp"
#include "server/rpc_peer.hpp"

namespace server {

class ClientRoots {
public:
    ClientRoots(asio::io_context& io, RpcPeer& peer, const os::Workspace& workspace, const Config& config);

    // The workspace of a call; `client_has_roots`: the client declared the roots capability.
    asio::awaitable<std::shared_ptr<const os::Workspace>> for_call(bool client_has_roots,
                                                                   std::shared_ptr<RpcPeer::Call> call);
    // notifications/roots/list_changed.
    void changed();
    // For the next result: the client's roots were set aside. Said once, while it stays the same.
    std::string take_note() { return std::exchange(note_, {}); }

private:
    asio::awaitable<std::shared_ptr<const os::Workspace>> fetch(std::shared_ptr<RpcPeer::Call> call);
    asio::awaitable<void> wait_for_fetch(std::shared_ptr<RpcPeer::Call> call);
    std::shared_ptr<const os::Workspace> base() const { return {std::shared_ptr<const os::Workspace>(), &workspace_}; }

    RpcPeer& peer_;
    const os::Workspace& workspace_;
    const Config& config_;
    std::shared_ptr<const os::Workspace> client_workspace_;  // what the client's roots make of --root
    bool stale_ = true;
    bool fetching_ = false;         // a roots/list is out; other calls wait for its answer
    std::uint64_t generation_ = 0;  // counts notifications/roots/list_changed
    // Cancelled when the roots/list out ends, waking every waiting call; its expiry is where they
    // give up (so a timer, which wakes all waiters, rather than a channel, which wakes one).
    asio::steady_timer fetched_;
    std::string note_;
    std::string last_note_;
};

}  // namespace server
