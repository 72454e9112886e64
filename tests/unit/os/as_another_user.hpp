// For POSIX tests that need a second user (root reads any folder and opens any file: only another
// user meets EACCES): runs a piece of work as user and group 65534 (nobody) in a forked child and
// hands back the text it produced.
#pragma once

#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

namespace os_test {

// What `work` returned, run as user and group 65534 in a child of this process, which must be
// root; or the line saying what kept the child from becoming that user. The child's exit is checked.
inline std::string as_user_nobody(const std::function<std::string()>& work) {
    REQUIRE_MESSAGE(::geteuid() == 0, "only root can act as another user");
    int out[2];
    REQUIRE(::pipe(out) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(out[0]);
        std::string said;
        if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
            said = "child: could not become user 65534: " + std::string(std::strerror(errno)) + "\n";
        else if (::geteuid() == 0 || ::setuid(0) == 0)
            said = "child: still root after dropping privileges\n";
        else
            said = work();
        const bool wrote = ::write(out[1], said.data(), said.size()) == static_cast<ssize_t>(said.size());
        ::_exit(wrote ? 0 : 1);
    }
    ::close(out[1]);
    std::string said;
    char buffer[512];
    for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) said.append(buffer, static_cast<std::size_t>(n));
    ::close(out[0]);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    INFO("the child said: " << said);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return said;
}

}  // namespace os_test
