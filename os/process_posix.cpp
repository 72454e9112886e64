// POSIX implementation of platform::run_process and platform::ChildProcess (platform.hpp):
// posix_spawnp into a process group of its own, with only descriptors 0, 1 and 2. run_process:
// stdout+stderr merged into one pipe read with poll into a bounded buffer, the whole tree killed at
// the deadline, on cancellation, or when the program ends (what it left running goes with it).
// ChildProcess: a program kept running with pipes to its stdin and stdout. Its own file: the rest
// of the platform layer is files, this is processes.
// The tree: on Linux every descendant, found in /proc by parent and by a mark in its environment
// (MCP_EDIT_RUN), even one that left the group with setsid; the server is a child subreaper, so
// such orphans become its children, and are reaped. Elsewhere (macOS) the process group only: a
// descendant that calls setsid escapes it.
#include "os/platform.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __linux__
#include <dirent.h>
#include <sys/prctl.h>
#endif

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

// The programs this file started and has not reaped yet. Only those are waited for by pid by
// their owners; anything else that becomes our child (an orphan of their trees, adopted by the
// subreaper) is reaped by reap_zombies. Held across posix_spawn so a sweep never takes a fresh
// child's exit status.
std::mutex own_mutex;
std::set<pid_t> own_children;

void forget_child(pid_t pid) {
    const std::lock_guard lock(own_mutex);
    own_children.erase(pid);
}

// The mark each started program gets in its environment, inherited by what it starts (also after
// setsid): "MCP_EDIT_RUN=<server pid>.<n>".
constexpr std::string_view mark_name = "MCP_EDIT_RUN=";
std::atomic<std::uint64_t> next_mark{1};

#ifdef __linux__
struct ProcEntry {
    pid_t ppid = 0;
    char state = '?';
    bool exiting = false;  // on its way out, not yet a zombie (PF_EXITING); its environment is gone
};

// Every process in /proc with its parent and state (comm may hold spaces and parentheses: the
// fields are read after the last ')').
std::map<pid_t, ProcEntry> process_table() {
    std::map<pid_t, ProcEntry> out;
    DIR* proc = ::opendir("/proc");
    if (!proc) return out;
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0') continue;
        const std::string path = std::string("/proc/") + entry->d_name + "/stat";
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        char buffer[1024];
        const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
        ::close(fd);
        if (n <= 0) continue;
        buffer[n] = '\0';
        const char* close = std::strrchr(buffer, ')');
        char state = '?';
        long ppid = 0;
        unsigned long flags = 0;  // field 9: the kernel's PF_* flags
        if (!close || std::sscanf(close + 1, " %c %ld %*d %*d %*d %*d %lu", &state, &ppid, &flags) != 3) continue;
        constexpr unsigned long pf_exiting = 0x4;
        out[static_cast<pid_t>(pid)] = {static_cast<pid_t>(ppid), state, (flags & pf_exiting) != 0};
    }
    ::closedir(proc);
    return out;
}

// Whether `pid`'s environment (as it was started) holds `mark` ("MCP_EDIT_RUN=...") as an entry.
bool carries_mark(pid_t pid, const std::string& mark) {
    const std::string path = "/proc/" + std::to_string(pid) + "/environ";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::string env;
    char buffer[16384];
    ssize_t n = 0;
    while (env.size() < (4u << 20) && (n = ::read(fd, buffer, sizeof buffer)) > 0)
        env.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    const std::string entry = mark + '\0';
    return env.starts_with(entry) || env.find('\0' + entry) != std::string::npos;
}

// Orphans become the server's children rather than init's, so that kill_tree finds them and
// reap_adopted reaps them.
void become_subreaper() {
    static std::once_flag once;
    std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); });
}
#endif

#ifdef __linux__
// Reaps the zombies in `table` among the server's children that no owner waits for: orphans of
// the started programs' trees adopted by the subreaper.
void reap_zombies(const std::map<pid_t, ProcEntry>& table, pid_t self) {
    const std::lock_guard lock(own_mutex);
    for (const auto& [pid, entry] : table)
        if (entry.ppid == self && entry.state == 'Z' && !own_children.count(pid)) ::waitpid(pid, nullptr, WNOHANG);
}
#endif

// The same with a fresh look at /proc. Linux; elsewhere init adopts orphans.
void reap_adopted() {
#ifdef __linux__
    reap_zombies(process_table(), ::getpid());
#endif
}

// Kills `leader`'s process group and, on Linux, every descendant of it (when `leader_unreaped`:
// a reaped pid may belong to another process by now), and every process that carries its `mark`
// (those that left with setsid and lost their parent), repeatedly until a look at /proc finds none
// alive (a process may fork while we look). The leader is not reaped here.
void kill_tree(pid_t leader, bool leader_unreaped, const std::string& mark) {
    ::kill(-leader, SIGKILL);
#ifdef __linux__
    const pid_t self = ::getpid();
    std::set<pid_t> to_reap;  // what was killed here, and the tree's zombies not yet this process's children
    for (int round = 0; round < 32; ++round) {
        const auto table = process_table();
        if (round == 0) reap_zombies(table, self);  // orphans that ended on their own since the last look
        std::map<pid_t, std::vector<pid_t>> children;
        for (const auto& [pid, entry] : table) children[entry.ppid].push_back(pid);
        std::vector<pid_t> tree;
        if (leader_unreaped) tree.push_back(leader);
        // An orphan of the tree was adopted by the server (the subreaper): found by its mark.
        for (const auto& [pid, entry] : table)
            if (entry.ppid == self && pid != leader && entry.state != 'Z' && carries_mark(pid, mark))
                tree.push_back(pid);
        std::set<pid_t> in_tree(tree.begin(), tree.end());
        for (std::size_t i = 0; i < tree.size(); ++i)  // breadth first; zombies count, their children are ours
            for (const pid_t child : children[tree[i]])
                if (in_tree.insert(child).second) tree.push_back(child);
        bool alive = false;
        for (const pid_t pid : tree) {
            if (pid == leader) continue;
            const auto it = table.find(pid);
            if (it == table.end()) continue;
            if (it->second.state == 'Z') {
                // Its parent, killed here, passes it to this process (the subreaper) as it dies:
                // reaped below then, or it would stay a zombie until the next program runs.
                if (it->second.ppid != self) to_reap.insert(pid);
                continue;
            }
            ::kill(pid, SIGKILL);
            to_reap.insert(pid);
            alive = true;
        }
        if (!alive) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(round == 0 ? 0 : 5));
    }
    // What was killed becomes the server's child once its parent (killed too) has died: reap it
    // then (bounded wait; the leader is its owner's to reap). So is an adopted child that the
    // group's kill reached first: seen exiting, its environment (and so the mark) already gone,
    // it is waited for until it is a zombie, and reaped.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
        const auto table = process_table();
        reap_zombies(table, self);
        for (auto it = to_reap.begin(); it != to_reap.end();) {
            const auto found = table.find(*it);
            const bool done = found == table.end() || (found->second.ppid == self && found->second.state == 'Z');
            it = done ? to_reap.erase(it) : std::next(it);  // gone, or reaped just now
        }
        bool adopted_exiting = false;
        for (const auto& [pid, entry] : table)
            if (entry.ppid == self && pid != leader && entry.state != 'Z' && entry.exiting) adopted_exiting = true;
        if ((to_reap.empty() && !adopted_exiting) || std::chrono::steady_clock::now() >= until) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
#else
    (void)leader_unreaped;
    (void)mark;
#endif
}

// Starts argv in `directory` with stdin on `in` (/dev/null when -1), stdout on `out` and stderr
// on `err` and no other descriptor, in a new process group, with default signal dispositions (the
// server ignores SIGPIPE; its checks must not) and `mark` added to the environment. Returns the
// pid (registered in own_children); the failure is not_found when posix_spawnp says ENOENT.
base::Result<pid_t> spawn(const std::vector<std::string>& program, const std::string& directory, int in, int out,
                          int err, const std::string& mark) {
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
    if (in < 0)
        posix_spawn_file_actions_addopen(&setup.actions, 0, "/dev/null", O_RDONLY, 0);
    else
        posix_spawn_file_actions_adddup2(&setup.actions, in, 0);
    posix_spawn_file_actions_adddup2(&setup.actions, out, 1);
    posix_spawn_file_actions_adddup2(&setup.actions, err, 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Descriptors opened without close-on-exec (by a library, or a thread between open and fcntl)
    // do not reach the child either.
    posix_spawn_file_actions_addclosefrom_np(&setup.actions, 3);
#endif
    if (!directory.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, directory.c_str());

    std::vector<char*> argv;
    argv.reserve(program.size() + 1);
    for (const auto& arg : program) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    // The environment: the server's, without any mark it inherited itself, then this program's mark.
    std::vector<char*> env;
    for (char** e = environ; e && *e; ++e)
        if (!std::string_view(*e).starts_with(mark_name)) env.push_back(*e);
    env.push_back(const_cast<char*>(mark.c_str()));
    env.push_back(nullptr);
#ifdef __linux__
    become_subreaper();
#endif
    pid_t pid = -1;
    const std::lock_guard lock(own_mutex);
    if (const int failed = ::posix_spawnp(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), env.data());
        failed != 0) {
        return base::fail(base::Failure{
            "cannot start " + program[0] + " in " + directory + ": " + error_text(failed) +
                (failed == ENOENT ? " (is it installed and on the server's PATH, and does the directory exist?)" : ""),
            failed == ENOENT ? base::ErrorReason::not_found : base::ErrorReason::io_error});
    }
    own_children.insert(pid);
    return pid;
}

// A fresh mark for a program about to be started.
std::string new_mark() {
    return std::string(mark_name) + std::to_string(::getpid()) + "." + std::to_string(next_mark++);
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
    const std::string mark = new_mark();
    const auto spawned = spawn(run.argv, run.directory, -1, pipe.fds[1], pipe.fds[1], mark);
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
        kill_tree(pid, true, mark);  // the leader is not reaped yet (WNOWAIT), so its group id is still ours
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
    forget_child(pid);
    if (WIFEXITED(status))
        out.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        out.signal = WTERMSIG(status);
    out.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return out;
}

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
    Pipe in, out, err;
    if (!open_pipe(in.fds) || !open_pipe(out.fds) || !open_pipe(err.fds))
        return base::fail(base::Failure{"cannot create a pipe: " + error_text(errno), base::ErrorReason::io_error});
    std::string mark = new_mark();
    auto spawned = spawn(argv, directory, in.fds[0], out.fds[1], err.fds[1], mark);
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
    s.stopped = true;                       // writes go on during the grace (a last message), not after
    kill_tree(s.pid, reaped == 0, s.mark);  // what it started goes too (the leader may be gone already)
    if (reaped == 0)
        while (::waitpid(s.pid, &status, 0) < 0 && errno == EINTR) {}
    forget_child(s.pid);
    reap_adopted();
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
