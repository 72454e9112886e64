// POSIX implementation of platform::run_process and platform::ChildProcess (platform.hpp):
// posix_spawnp into a process group of its own. run_process: stdout+stderr merged into one pipe
// read with poll into a bounded buffer, the whole group killed at the deadline, on cancellation,
// or when the program exits leaving children that hold the pipe. ChildProcess: a program kept
// running with pipes to its stdin and stdout. Its own file: the rest of the platform layer is
// files, this is processes.
#include "os/platform.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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

// Starts argv in `directory` with stdin on `in` (/dev/null when -1), stdout on `out` and stderr
// on `err`, in a new process group, with default signal dispositions (the server ignores SIGPIPE;
// its checks must not). Returns the pid, or -1 with `error` set.
pid_t spawn(const std::vector<std::string>& program, const std::string& directory, int in, int out, int err,
            std::string& error) {
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
    if (in < 0) posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
    else posix_spawn_file_actions_adddup2(&setup.actions, in, 0);
    posix_spawn_file_actions_adddup2(&setup.actions, out, 1);
    posix_spawn_file_actions_adddup2(&setup.actions, err, 2);
    if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, directory.c_str());

    std::vector<char*> argv;
    argv.reserve(program.size() + 1);
    for (const auto& arg : program) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (const int failed = ::posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), environ); failed != 0) {
        error = "cannot start " + program[0] + " in " + directory + ": " + error_text(failed) +
                (failed == ENOENT ? " (is it installed and on the server's PATH, and does the directory exist?)" : "");
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
    const pid_t pid = spawn(run.argv, run.directory, -1, pipe.fds[1], pipe.fds[1], out.error);
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

struct ChildProcess::State {
    pid_t pid = -1;
    int input = -1;   // its stdin (our write end)
    int output = -1;  // its stdout (our read end)
    int errors = -1;  // its stderr (our read end), drained by error_reader
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

bool ChildProcess::start(const std::vector<std::string>& argv, const std::string& directory, std::string& error) {
    if (argv.empty() || argv[0].empty()) {
        error = "no program to run";
        return false;
    }
    Pipe in, out, err;
    if (!open_pipe(in.fds) || !open_pipe(out.fds) || !open_pipe(err.fds)) {
        error = "cannot create a pipe: " + error_text(errno);
        return false;
    }
    const pid_t pid = spawn(argv, directory, in.fds[0], out.fds[1], err.fds[1], error);
    if (pid < 0) return false;
    State& s = *state_;
    s.pid = pid;
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
    return true;
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
    s.stopped = true;  // writes go on during the grace (a last message), not after
    ::kill(-s.pid, SIGKILL);  // the group: what it started goes too (the leader may be gone already)
    if (reaped == 0)
        while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) {
        }
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

bool remove_private_directory(const std::string& path) {
    std::error_code error;
    std::filesystem::remove_all(path, error);
    return !error;
}

}  // namespace platform
