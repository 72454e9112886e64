// POSIX implementation of os::ChildProcess (os/process.hpp): a program kept running (a
// language server) with pipes to its stdin and stdout, its stderr drained by a thread of its own,
// started and ended with its whole tree through os/process_tree_posix.hpp.
#include "os/error_text.hpp"
#include "os/process.hpp"

#include <cerrno>
#include <csignal>
#include <atomic>
#include <mutex>
#include <thread>

#include <poll.h>
#include <pthread.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/process_tree_posix.hpp"

namespace os {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

struct ChildProcess::State {
    pid_t pid = -1;
    int input = -1;    // its stdin (our write end)
    int output = -1;   // its stdout (our read end)
    int errors = -1;   // its stderr (our read end), drained by error_reader
    std::string mark;  // in its environment and its descendants' (kill_tree)
    std::thread error_reader;
    mutable std::mutex error_mutex;
    std::string error_tail;
    std::atomic<bool> stopped{false};  // read() then returns 0 even while something still holds the pipe
    bool ended = false;                // stop() ran
};

ChildProcess::ChildProcess() : state_(std::make_unique<State>()) {}

ChildProcess::~ChildProcess() {
    stop(std::chrono::milliseconds(0));
    for (int fd : {state_->input, state_->output})
        if (fd >= 0) ::close(fd);
}

base::Result<void> ChildProcess::start(const std::vector<std::string>& argv, const std::string& directory) {
    if (argv.empty() || argv[0].empty())
        return base::fail(base::Failure{"no program to run", base::ErrorReason::invalid_arguments});
    posix::Pipe in, out, err;
    if (!posix::open_pipe(in.fds) || !posix::open_pipe(out.fds) || !posix::open_pipe(err.fds))
        return base::fail(base::Failure{"cannot create a pipe: " + error_text(errno), base::ErrorReason::io_error});
    std::string mark = posix::new_mark();
    auto spawned = posix::spawn(argv, directory, in.fds[0], out.fds[1], err.fds[1], mark);
    if (!spawned) return base::fail(std::move(spawned.error()));
    State& s = *state_;
    s.pid = *spawned;
    s.mark = std::move(mark);
    std::swap(s.input, in.fds[1]);
    std::swap(s.output, out.fds[0]);
    std::swap(s.errors, err.fds[0]);
    s.error_reader = std::thread([&s] {
        char buffer[4096];
        for (;;) {
            pollfd p{s.errors, POLLIN, 0};
            if (::poll(&p, 1, 100) == 0) {
                if (s.stopped) return;  // stopped, and nothing more came for a tenth of a second
                continue;
            }
            const ssize_t n = ::read(s.errors, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            const std::lock_guard lock(s.error_mutex);
            s.error_tail.append(buffer, static_cast<std::size_t>(n));
            if (s.error_tail.size() > max_error_output) s.error_tail.erase(0, s.error_tail.size() - max_error_output);
        }
    });
    return {};
}

bool ChildProcess::write(std::string_view bytes) {
    const int fd = state_->input;
    if (fd < 0 || state_->stopped) return false;
    // A program that exited makes the write fail with EPIPE, and raise SIGPIPE, which would end
    // this process unless ignored: blocked on this thread while writing, and taken back if raised.
    sigset_t pipe_signal, before;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &before);
    bool ok = true;
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            sigset_t pending;
            int taken = 0;
            // sigwait returns at once: the signal is pending (macOS has no sigtimedwait).
            if (n < 0 && errno == EPIPE && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1)
                sigwait(&pipe_signal, &taken);
            ok = false;
            break;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return ok;
}

std::size_t ChildProcess::read(char* buffer, std::size_t size) {
    const int fd = state_->output;
    if (fd < 0) return 0;
    for (;;) {
        if (state_->stopped) return 0;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) == 0) continue;  // looks at `stopped` ten times a second
        const ssize_t n = ::read(fd, buffer, size);
        if (n < 0 && errno == EINTR) continue;
        return n > 0 ? static_cast<std::size_t>(n) : 0;
    }
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
    State& s = *state_;
    if (s.ended || s.pid < 0) return;
    s.ended = true;
    const auto deadline = Clock::now() + grace;
    int status = 0;
    pid_t reaped = 0;
    while ((reaped = ::waitpid(s.pid, &status, WNOHANG)) == 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    s.stopped = true;                              // writes go on during the grace (a last message), not after
    posix::kill_tree(s.pid, reaped == 0, s.mark);  // what it started goes too (the leader may be gone already)
    if (reaped == 0)
        while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) {}
    posix::forget_child(s.pid);
    posix::reap_adopted();
    // The output end stays open until the destructor: a reader may still be in read(), which now
    // returns 0. The stderr reader ends at the pipe's end, or soon after stopped if something that
    // left the group still holds it.
    if (s.error_reader.joinable()) s.error_reader.join();
    ::close(s.errors);
    s.errors = -1;
}

std::string ChildProcess::error_output() const {
    const std::lock_guard lock(state_->error_mutex);
    return state_->error_tail;
}

}  // namespace os
