// Newline-delimited messages over stdin/stdout: a reader that splits lines under a size cap and
// one writer that owns stdout, so messages never interleave. Nothing else touches fd 1. On
// Windows, where hosts hand over anonymous pipes that cannot be read with overlapped I/O, stdin
// is read on a thread that posts what it reads to the io context, and both are in binary mode.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <asio/awaitable.hpp>
#include <asio/io_context.hpp>
#ifndef _WIN32
#include <asio/posix/stream_descriptor.hpp>
#endif

#include "protocol/framing.hpp"
#include "server/output_budget.hpp"
#include "server/transport.hpp"
#include "server/wake_signal.hpp"

namespace server {

class StdioTransport final : public Transport {
public:
    // Takes duplicates of `in_fd` and `out_fd`. Lines longer than `max_line` are skipped.
    StdioTransport(asio::io_context& io, int in_fd, int out_fd, std::size_t max_line);
    ~StdioTransport() override;
    StdioTransport(const StdioTransport&) = delete;
    StdioTransport& operator=(const StdioTransport&) = delete;

    void start(Receiver receiver) override;
    void send(std::string message) override;
    void stop_reading() override;
    asio::awaitable<void> drained() override;

    // Called once, on the io thread, when the first message has been written to stdout (never
    // when none is): work the start deferred so as not to delay the first reply begins there.
    void after_first_write(std::function<void()> action) { after_first_write_ = std::move(action); }

    // The output waiting to be written, for the blocking pool's executor (BudgetedExecutor): over
    // its limit, neither input is read nor new work started until the client reads.
    OutputBudget& budget() { return budget_; }

private:
#ifndef _WIN32
    asio::awaitable<void> read_loop();
#endif
    void read_thread_loop();
    void feed(const char* data, std::size_t n);
    bool take(protocol::FrameReader::Event event);  // one line (or a skipped one) to the receiver
    void finish_input();                            // the last line without its newline, then EOF
    asio::awaitable<void> write_loop();
    bool write_blocking(const std::string& data);

    asio::io_context& io_;
    protocol::FrameReader lines_;  // newline framing, each line under the cap
    Receiver receiver_;
    int in_fd_ = -1;
    int out_fd_ = -1;
#ifndef _WIN32
    std::optional<asio::posix::stream_descriptor> in_;   // when fd 0 can be polled (pipe, tty)
    std::optional<asio::posix::stream_descriptor> out_;  // when fd 1 can be polled
#endif
    std::thread in_thread_;  // otherwise: regular files, and always on Windows
    bool reading_ = true;
    bool eof_sent_ = false;

    std::deque<std::string> queue_;
    std::size_t queued_bytes_ = 0;
    OutputBudget budget_;
    bool output_broken_ = false;
    WakeSignal write_wakeup_;    // something was queued
    WakeSignal drained_signal_;  // the queue ran empty (or output broke)
    WakeSignal backpressure_;    // queued output fell below the cap
    std::function<void()> after_first_write_;
};

}  // namespace server
