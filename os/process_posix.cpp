// POSIX implementation of platform::run_process (platform.hpp): posix_spawnp into a process group
// of its own, stdout+stderr merged into one pipe read with poll into a bounded buffer, the whole
// group killed at the deadline, on cancellation, or when the program exits leaving children that
// hold the pipe. Its own file: the rest of the platform layer is files, this is processes.
#include "os/platform.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace platform {

namespace {

using Clock = std::chrono::steady_clock;

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
    posix_spawnattr_t attr{};
    posix_spawn_file_actions_t actions{};
    SpawnSetup() {
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_init(&actions);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// Both ends of the output pipe, closed on every path.
struct Pipe {
    int fds[2] = {-1, -1};
    ~Pipe() {
        for (int fd : fds)
            if (fd >= 0) ::close(fd);
    }
    void close_write() {
        ::close(fds[1]);
        fds[1] = -1;
    }
};

// Starts argv in `directory` with stdout and stderr on `out`, stdin on /dev/null, in a new
// process group, with default signal dispositions (the server ignores SIGPIPE; its checks must
// not). Returns the pid, or -1 with `error` set.
pid_t spawn(const ProcessRun& run, int out, std::string& error) {
    SpawnSetup setup;
    sigset_t no_signals, default_signals;
    sigemptyset(&no_signals);
    sigemptyset(&default_signals);
    sigaddset(&default_signals, SIGPIPE);
    sigaddset(&default_signals, SIGINT);
    sigaddset(&default_signals, SIGTERM);
    short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef __APPLE__
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;  // only the descriptors set up below reach the child
#endif
    posix_spawnattr_setflags(&setup.attr, flags);
    posix_spawnattr_setpgroup(&setup.attr, 0);
    posix_spawnattr_setsigmask(&setup.attr, &no_signals);
    posix_spawnattr_setsigdefault(&setup.attr, &default_signals);
    posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&setup.actions, out, 1);
    posix_spawn_file_actions_adddup2(&setup.actions, out, 2);
    if (!run.directory.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, run.directory.c_str());

    std::vector<char*> argv;
    argv.reserve(run.argv.size() + 1);
    for (const auto& arg : run.argv) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (const int err = ::posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), environ); err != 0) {
        error = "cannot start " + run.argv[0] + " in " + run.directory + ": " + error_text(err) +
                (err == ENOENT ? " (is it installed and on the server's PATH, and does the directory exist?)" : "");
        return -1;
    }
    return pid;
}

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

// A pipe whose ends are not inherited by other children. Linux creates it close-on-exec at once;
// macOS has no pipe2, so the flag is set after, and POSIX_SPAWN_CLOEXEC_DEFAULT (spawn) keeps a
// child spawned in between from inheriting it.
bool open_pipe(int fds[2]) {
#ifdef __APPLE__
    if (::pipe(fds) != 0) return false;
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return true;
#else
    return ::pipe2(fds, O_CLOEXEC) == 0;
#endif
}

}  // namespace

ProcessOutcome run_process(const ProcessRun& run) {
    ProcessOutcome out;
    const auto start = Clock::now();
    if (run.argv.empty() || run.argv[0].empty()) {
        out.error = "no program to run";
        return out;
    }
    Pipe pipe;
    if (!open_pipe(pipe.fds)) {
        out.error = "cannot create a pipe: " + error_text(errno);
        return out;
    }
    const pid_t pid = spawn(run, pipe.fds[1], out.error);
    if (pid < 0) return out;
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
        ::kill(-pid, SIGKILL);  // the leader is not reaped yet (WNOWAIT), so its group id is still ours
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
        if (!killed) wait = std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                                               std::chrono::milliseconds(1));
        if (eof) wait = std::chrono::milliseconds(1);  // output closed: only the exit is awaited
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, eof ? 0 : 1, static_cast<int>(wait.count()));
        if (ready > 0 && !drain(fd, out, run.max_output)) eof = true;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
    out.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return out;
}

bool remove_private_directory(const std::string& path) {
    std::error_code error;
    std::filesystem::remove_all(path, error);
    return !error;
}

}  // namespace platform
