// What a session needs of its connection: a way out for each message, and lines in until input
// ends. The transport's read loop hands each line to the Receiver it was started with;
// StdioTransport serves the process, tests drive a session through an in-memory one.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <asio/awaitable.hpp>

namespace server {

class Transport {
public:
    struct Receiver {
        std::function<void(std::string line)> on_line;
        std::function<void(std::size_t bytes)> on_oversized;  // a line over the cap was skipped
        std::function<void()> on_eof;
    };

    virtual ~Transport() = default;

    // Starts reading; every line read goes to `receiver`, then on_eof once.
    virtual void start(Receiver receiver) = 0;
    // Queues one message (without its newline). Call on the io_context's thread.
    virtual void send(std::string message) = 0;
    // Stops reading input; queued output is still written.
    virtual void stop_reading() = 0;
    // Completes once every queued message has been written (or output failed).
    virtual asio::awaitable<void> drained() = 0;
};

}  // namespace server
