// POSIX implementation of os::run_process (os/process.hpp): a program run to completion,
// started through os/process_tree_posix.hpp, its stdout+stderr merged into one pipe read with poll
// into a bounded buffer, the whole tree killed at the deadline, on cancellation, or when the
// program ends (what it left running goes with it). ChildProcess, the program kept running, is in
// os/child_process_posix.cpp.
#include "os/process.hpp"

#include <cerrno>
#include <csignal>
#include <algorithm>

#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/error_text.hpp"
#include "os/process_tree_posix.hpp"

namespace os {

namespace {

using Clock = std::chrono::steady_clock;

// Reads what is there into `out` (at most `max` bytes kept). False at end of file.
bool drain(int fd, ProcessOutcome& out, std::size_t max) {
    char buffer[16384];
    for (int round = 0; round < 64; ++round) {  // bounded per wake-up; poll brings us back
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n == 0) return false;
        if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        const std::size_t room = max - std::min(max, out.output.size());
        const std::size_t keep = std::min(room, static_cast<std::size_t>(n));
        out.output.append(buffer, keep);
        if (keep < static_cast<std::size_t>(n)) out.output_truncated = true;
    }
    return true;
}

}  // namespace

ProcessOutcome run_process(const ProcessRun& run) {
    ProcessOutcome out;
    const auto start = Clock::now();
    if (run.argv.empty() || run.argv[0].empty()) {
        out.error = "no program to run";
        return out;
    }
    posix::Pipe pipe;
    if (!posix::open_pipe(pipe.fds)) {
        out.error = "cannot create a pipe: " + error_text(errno);
        return out;
    }
    const std::string mark = posix::new_mark();
    const auto spawned = posix::spawn(run.argv, run.directory, -1, pipe.fds[1], pipe.fds[1], mark);
    if (!spawned) {
        out.error = spawned.error().message;
        return out;
    }
    const pid_t pid = *spawned;
    out.started = true;
    pipe.close_write();
    const int fd = pipe.fds[0];
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

    const auto deadline = start + run.timeout;
    constexpr auto tick = std::chrono::milliseconds(50);
    constexpr auto grace_after_kill = std::chrono::seconds(2);  // for the pipe to close once the group is killed
    bool eof = false, exited = false, killed = false;
    Clock::time_point killed_at{};
    const auto kill_group = [&] {
        if (killed) return;
        posix::kill_tree(pid, true, mark);  // the leader is not reaped yet (WNOWAIT), so its group id is still ours
        killed = true;
        killed_at = Clock::now();
    };
    while (true) {
        if (!exited) {
            siginfo_t info{};
            if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
                exited = true;
        }
        if (eof && exited) break;
        const auto now = Clock::now();
        if (exited) kill_group();  // it left children holding the output: they go with it
        if (!killed && run.cancelled && run.cancelled->load()) {
            out.cancelled = true;
            kill_group();
        }
        if (!killed && now >= deadline) {
            out.timed_out = true;
            kill_group();
        }
        if (killed && now - killed_at > grace_after_kill) break;  // something left the group and holds the pipe
        auto wait = tick;
        if (!killed)
            wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                                      std::chrono::milliseconds(1));
        if (eof) wait = std::chrono::milliseconds(1);  // output closed: only the exit is awaited
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, eof ? 0 : 1, static_cast<int>(wait.count()));
        if (ready > 0 && !drain(fd, out, run.max_output)) eof = true;
    }
    kill_group();  // what it left running after it ended (a background job, a setsid daemon) goes too
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    posix::forget_child(pid);
    if (WIFEXITED(status))
        out.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        out.signal = WTERMSIG(status);
    out.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return out;
}

}  // namespace os
