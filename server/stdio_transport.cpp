// StdioTransport: asio stream descriptors on dups of fd 0/1 when they can be polled (pipes,
// terminals, sockets); a plain reader thread and blocking writes when they are regular files
// (`mcp-edit < requests.jsonl > replies.jsonl`), which epoll refuses.
#include "server/stdio_transport.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/post.hpp>
#include <asio/read.hpp>
#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>

#include "base/log.hpp"

namespace server {

namespace {

// While this much output waits for a slow reader, input is not read and the blocking pool starts
// no new work (backpressure; see OutputBudget).
constexpr std::size_t max_queued_output = 64u << 20;

// The descriptor calls, for the reader thread and blocking writes. Windows: the CRT's, on a
// duplicate in binary mode (no CRLF translation on the wire).
#ifdef _WIN32
int duplicate(int fd) {
    const int copy = ::_dup(fd);
    if (copy >= 0) ::_setmode(copy, _O_BINARY);
    return copy;
}
long read_some(int fd, char* data, std::size_t n) {
    return ::_read(fd, data, static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30)));
}
long write_some(int fd, const char* data, std::size_t n) {
    return ::_write(fd, data, static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30)));
}
void close_fd(int fd) { ::_close(fd); }
#else
int duplicate(int fd) { return ::fcntl(fd, F_DUPFD_CLOEXEC, 3); }
long read_some(int fd, char* data, std::size_t n) { return ::read(fd, data, n); }
long write_some(int fd, const char* data, std::size_t n) { return ::write(fd, data, n); }
void close_fd(int fd) { ::close(fd); }
#endif

}  // namespace

StdioTransport::StdioTransport(asio::io_context& io, int in_fd, int out_fd, std::size_t max_line)
    : io_(io),
      lines_(protocol::Framing::newline, max_line),
      budget_(max_queued_output),
      write_wakeup_(io.get_executor()),
      drained_signal_(io.get_executor()),
      backpressure_(io.get_executor()) {
    in_fd_ = duplicate(in_fd);
    out_fd_ = duplicate(out_fd);
#ifndef _WIN32
    if (in_fd_ >= 0) {
        try {
            in_.emplace(io_, in_fd_);
            in_->non_blocking(true);
        } catch (const std::exception&) {
            in_.reset();  // not pollable: the reader thread will serve it
        }
    }
    if (out_fd_ >= 0) {
        try {
            out_.emplace(io_, out_fd_);
        } catch (const std::exception&) {
            out_.reset();
        }
    }
#endif
}

StdioTransport::~StdioTransport() {
#ifdef _WIN32
    // A pipe can block the reader thread for good: it is left to end with the process.
    if (in_thread_.joinable()) in_thread_.detach();
#else
    if (in_thread_.joinable()) in_thread_.join();
    if (in_) in_->release();
    if (out_) out_->release();
    if (in_fd_ >= 0) close_fd(in_fd_);
#endif
    if (out_fd_ >= 0) close_fd(out_fd_);
}

void StdioTransport::start(Receiver receiver) {
    receiver_ = std::move(receiver);
    asio::co_spawn(io_, write_loop(), asio::detached);
#ifndef _WIN32
    if (in_) {
        asio::co_spawn(io_, read_loop(), asio::detached);
        return;
    }
#endif
    if (in_fd_ >= 0) {
        // On POSIX only regular files come here; they never block for long, so this thread
        // always finishes on its own.
        in_thread_ = std::thread([this] { read_thread_loop(); });
    } else {
        asio::post(io_, [this] { receiver_.on_eof(); });
    }
}

bool StdioTransport::take(protocol::FrameReader::Event event) {
    if (!reading_) return false;
    // The receiver answers what it cannot serve; should it throw all the same, the line is
    // lost but reading goes on (a reader that stopped would never see EOF).
    try {
        if (event.kind == protocol::FrameReader::Event::Kind::oversized)
            receiver_.on_oversized(event.bytes);
        else if (event.kind == protocol::FrameReader::Event::Kind::frame)
            receiver_.on_line(std::move(event.body));
    } catch (const std::exception& e) {
        base::log::error("stdin: a line could not be handled: {}", e.what());
    }
    return reading_;
}

void StdioTransport::feed(const char* data, std::size_t n) {
    if (reading_)
        lines_.feed(std::string_view(data, n), [this](protocol::FrameReader::Event e) { return take(std::move(e)); });
}

void StdioTransport::finish_input() {
    if (reading_)
        lines_.finish(
            [this](protocol::FrameReader::Event e) { return take(std::move(e)); });  // a last line without its newline
    if (!eof_sent_) {
        eof_sent_ = true;
        receiver_.on_eof();
    }
}

#ifndef _WIN32
asio::awaitable<void> StdioTransport::read_loop() {
    std::array<char, 65536> buffer;
    while (reading_) {
        if (queued_bytes_ > max_queued_output && !output_broken_) {
            co_await backpressure_.wait();
            continue;
        }
        asio::error_code ec;
        const std::size_t n =
            co_await in_->async_read_some(asio::buffer(buffer), asio::redirect_error(asio::use_awaitable, ec));
        if (!reading_) break;
        if (n > 0) feed(buffer.data(), n);
        if (ec) {
            if (ec != asio::error::eof && ec != asio::error::operation_aborted)
                base::log::warn("stdin: {}", ec.message());
            break;
        }
    }
    finish_input();
}

#endif

void StdioTransport::read_thread_loop() {
    char buffer[65536];
    for (;;) {
        const long n = read_some(in_fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::string chunk(buffer, static_cast<std::size_t>(n));
        asio::post(io_, [this, chunk = std::move(chunk)] { feed(chunk.data(), chunk.size()); });
    }
    asio::post(io_, [this] { finish_input(); });
}

void StdioTransport::stop_reading() {
    if (!reading_) return;
    reading_ = false;
#ifndef _WIN32
    if (in_) {
        asio::error_code ignored;
        in_->cancel(ignored);
    }
#endif
}

void StdioTransport::send(std::string body) {
    if (output_broken_) return;
    auto framed = protocol::write_frame(protocol::Framing::newline, std::move(body), max_queued_output);
    if (!framed) {
        base::log::error("stdout: {}; not sent", framed.error());
        return;
    }
    std::string message = std::move(*framed);
    queued_bytes_ += message.size();
    budget_.add(message.size());
    queue_.push_back(std::move(message));
    write_wakeup_.notify();
}

bool StdioTransport::write_blocking(const std::string& data) {
    std::size_t done = 0;
    while (done < data.size()) {
        const long n = write_some(out_fd_, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

asio::awaitable<void> StdioTransport::write_loop() {
    for (;;) {
        if (queue_.empty()) {
            drained_signal_.notify();
            co_await write_wakeup_.wait();
            continue;
        }
        // Gather what is queued into one write.
        std::string batch = std::move(queue_.front());  // most often the only one: not copied
        queue_.pop_front();
        while (!queue_.empty() && batch.size() < (1u << 20)) {
            batch += queue_.front();
            queue_.pop_front();
        }
        bool ok = true;
#ifndef _WIN32
        if (out_) {
            asio::error_code ec;
            co_await asio::async_write(*out_, asio::buffer(batch), asio::redirect_error(asio::use_awaitable, ec));
            ok = !ec;
        } else
#endif
            if (out_fd_ >= 0) {
            ok = write_blocking(batch);
        } else {
            ok = false;
        }
        queued_bytes_ -= std::min(queued_bytes_, batch.size());
        budget_.remove(batch.size());
        if (queued_bytes_ <= max_queued_output) backpressure_.notify();
        if (ok && after_first_write_) std::exchange(after_first_write_, nullptr)();
        if (!ok) {
            base::log::warn("stdout closed; dropping further output");
            output_broken_ = true;
            queue_.clear();
            queued_bytes_ = 0;
            budget_.open_for_good();
            backpressure_.notify();
            drained_signal_.notify();
            co_return;
        }
    }
}

asio::awaitable<void> StdioTransport::drained() {
    while (!queue_.empty() && !output_broken_) {
        co_await drained_signal_.wait();
    }
    // The last batch may still be in flight inside async_write: wait for it too.
    while (queued_bytes_ > 0 && !output_broken_) {
        co_await drained_signal_.wait();
    }
}

}  // namespace server
