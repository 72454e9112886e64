// The programs the POSIX process layer starts, and the trees they grow: started with posix_spawnp
// into a process group of their own with a mark in their environment, and ended whole. Shared by
// run_process (os/process_posix.cpp) and ChildProcess (os/child_process_posix.cpp).
// The tree: on Linux every descendant, found in /proc by parent and by a mark in its environment
// (MCP_EDIT_RUN), even one that left the group with setsid; the server is a child subreaper, so
// such orphans become its children, and are reaped. Elsewhere (macOS) the process group only: a
// descendant that calls setsid escapes it.
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>
#include <unistd.h>

#include "base/result.hpp"

namespace os::posix {

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

// A pipe whose ends are not inherited by other children. Linux creates it close-on-exec at once;
// macOS has no pipe2, so the flag is set after, and POSIX_SPAWN_CLOEXEC_DEFAULT (spawn) keeps a
// child spawned in between from inheriting it.
bool open_pipe(int fds[2]);

// A fresh mark for a program about to be started: "MCP_EDIT_RUN=<server pid>.<n>".
std::string new_mark();

// Starts argv in `directory` with stdin on `in` (/dev/null when -1), stdout on `out` and stderr
// on `err` and no other descriptor, in a new process group, with default signal dispositions (the
// server ignores SIGPIPE; its checks must not) and `mark` added to the environment. Returns the
// pid (registered as one of this layer's own children until forget_child); the failure is
// not_found when posix_spawnp says ENOENT.
base::Result<pid_t> spawn(const std::vector<std::string>& program, const std::string& directory, int in, int out,
                          int err, const std::string& mark);

// Kills `leader`'s process group and, on Linux, every descendant of it (when `leader_unreaped`:
// a reaped pid may belong to another process by now), and every process that carries its `mark`
// (those that left with setsid and lost their parent), repeatedly until a look at /proc finds none
// alive (a process may fork while we look). The leader is not reaped here.
void kill_tree(pid_t leader, bool leader_unreaped, const std::string& mark);

// `pid`, started by spawn, was reaped by its owner: no longer one of this layer's own children.
void forget_child(pid_t pid);

// Reaps the zombies among the server's children that no owner waits for: orphans of the started
// programs' trees adopted by the subreaper. Linux; elsewhere init adopts orphans.
void reap_adopted();

}  // namespace os::posix
