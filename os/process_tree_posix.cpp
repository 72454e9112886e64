// The programs started by the POSIX process layer and the trees they grow
// (os/process_tree_posix.hpp): spawning with posix_spawnp, the mark each carries, the /proc walk
// that finds a tree's processes on Linux, killing a tree whole and reaping what the subreaper
// adopts.
#include "os/process_tree_posix.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <chrono>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#ifdef __linux__
#include <dirent.h>
#include <sys/prctl.h>
#endif

#include "os/error_text.hpp"

extern char** environ;

namespace os::posix {

namespace {

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

// The programs this file started and has not reaped yet. Only those are waited for by pid by
// their owners; anything else that becomes our child (an orphan of their trees, adopted by the
// subreaper) is reaped by reap_zombies. Held across posix_spawn so a sweep never takes a fresh
// child's exit status.
std::mutex own_mutex;
std::set<pid_t> own_children;

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

}  // namespace

void forget_child(pid_t pid) {
    const std::lock_guard lock(own_mutex);
    own_children.erase(pid);
}

void reap_adopted() {
#ifdef __linux__
    reap_zombies(process_table(), ::getpid());
#endif
}

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

std::string new_mark() {
    return std::string(mark_name) + std::to_string(::getpid()) + "." + std::to_string(next_mark++);
}

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

}  // namespace os::posix
