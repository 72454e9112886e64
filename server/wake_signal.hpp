// A wake-up between coroutines on one io_context: notify() wakes the one waiter (or, with none
// waiting, the next wait returns at once). Waiters re-check their condition, so a spare wake-up
// costs one look. An asio channel, not a timer that is cancelled to mean "now".
#pragma once

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/experimental/channel.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>

namespace server {

class WakeSignal {
public:
    explicit WakeSignal(const asio::any_io_executor& executor) : channel_(executor, 1) {}

    void notify() { channel_.try_send(asio::error_code{}, true); }

    asio::awaitable<void> wait() {
        asio::error_code ignored;
        co_await channel_.async_receive(asio::redirect_error(asio::use_awaitable, ignored));
    }

private:
    // (asio 1.2x cannot instantiate a channel of void(error_code) alone: the flag carries nothing.)
    asio::experimental::channel<void(asio::error_code, bool)> channel_;
};

}  // namespace server
