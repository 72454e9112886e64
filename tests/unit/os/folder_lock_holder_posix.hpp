// A second process that holds a folder's lock as another mcp-edit server would (a forked child
// that takes it with os::try_lock_folder and keeps it until killed), for the tests of the
// folder lock and of a transaction waiting for it. Named `lock-holder` (Linux), so that the
// tests can check that the holder is named.
#pragma once

#include <doctest/doctest.h>

#include <csignal>
#include <string>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "os/locks.hpp"

namespace lock_test {

class LockHolder {
public:
    explicit LockHolder(const std::string& dir) {
        int ready[2];
        REQUIRE(::pipe(ready) == 0);
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::close(ready[0]);
#ifdef __linux__
            ::prctl(PR_SET_NAME, "lock-holder");
#endif
            os::FolderLock lock;
            const auto taken = os::try_lock_folder(dir, lock);
            const char said = taken.ok() && taken.value() ? 'y' : 'n';
            if (::write(ready[1], &said, 1) != 1) ::_exit(1);
            for (;;) ::pause();  // until killed: the lock file stays, as a killed server's would
        }
        ::close(ready[1]);
        char said = 0;
        const auto n = ::read(ready[0], &said, 1);
        ::close(ready[0]);
        REQUIRE(n == 1);
        REQUIRE(said == 'y');
    }
    LockHolder(const LockHolder&) = delete;
    LockHolder& operator=(const LockHolder&) = delete;
    ~LockHolder() { release(); }

    pid_t pid() const { return pid_; }
    // Stops the holder (SIGSTOP) and waits until it is stopped.
    void stop() {
        ::kill(pid_, SIGSTOP);
        int status = 0;
        ::waitpid(pid_, &status, WUNTRACED);
    }
    // Kills the holder (its lock goes with it) and waits until it is gone.
    void release() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

private:
    pid_t pid_ = -1;
};

}  // namespace lock_test
