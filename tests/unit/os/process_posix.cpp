// Unit tests of os::run_process: exit codes, merged bounded output, the working directory,
// the timeout and cancellation killing the whole process group (on Linux the whole tree, setsid
// included, with no zombie left), a program that is not there, only descriptors 0-2 inherited.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

#include "os/file_status.hpp"
#include "os/process.hpp"
#include "os/scratch_files.hpp"

using namespace std::chrono_literals;

namespace {

os::ProcessOutcome sh(const std::string& script, std::chrono::milliseconds timeout = 5000ms,
                      std::size_t max_output = 64 * 1024, const std::atomic<bool>* cancelled = nullptr) {
    os::ProcessRun run;
    run.argv = {"sh", "-c", script};
    run.directory = "/tmp";
    run.timeout = timeout;
    run.max_output = max_output;
    run.cancelled = cancelled;
    return os::run_process(run);
}

}  // namespace

TEST_CASE("run_process: exit code, stdout and stderr merged in order, the working directory") {
    auto out = sh("echo one; echo two >&2; pwd; exit 3");
    REQUIRE(out.started);
    CHECK(out.exit_code == 3);
    CHECK(out.output == "one\ntwo\n/tmp\n");
    CHECK_FALSE(out.timed_out);
    CHECK_FALSE(out.output_truncated);
    auto ok = sh("true");
    CHECK(ok.exit_code == 0);
    CHECK(ok.output.empty());
}

TEST_CASE("run_process: stdin is empty, SIGPIPE is the default in the child") {
    CHECK(sh("cat").exit_code == 0);
    // yes | head: yes dies of SIGPIPE (status 141 from sh) rather than looping on EPIPE
    auto out = sh("yes | head -n 1; exit 0");
    CHECK(out.output == "y\n");
    CHECK(out.duration < 3000ms);
}

TEST_CASE("run_process: output beyond the bound is read and dropped, and said") {
    auto out = sh("head -c 300000 /dev/zero | tr '\\0' x; echo; echo done >&2", 5000ms, 1000);
    REQUIRE(out.started);
    CHECK(out.exit_code == 0);
    CHECK(out.output.size() == 1000);
    CHECK(out.output_truncated);
}

TEST_CASE("run_process: the timeout kills a sleep 30 and its whole process group") {
    const auto start = std::chrono::steady_clock::now();
    auto out = sh("sleep 30 & sleep 30; echo never", 300ms);
    const auto took = std::chrono::steady_clock::now() - start;
    CHECK(out.timed_out);
    CHECK_FALSE(out.exit_code.has_value());
    CHECK(out.signal == 9);
    CHECK(out.output.empty());
    CHECK(took < 3s);  // the background sleep held the pipe too: it was killed with the group
}

TEST_CASE("run_process: children left behind holding the output are killed when the program exits") {
    const auto start = std::chrono::steady_clock::now();
    auto out = sh("echo hi; sleep 30 &", 20000ms);
    CHECK(out.exit_code == 0);
    CHECK(out.output == "hi\n");
    CHECK_FALSE(out.timed_out);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
}

#ifdef __linux__
namespace {

// The processes whose command line holds `needle` (sleep's argument below marks them), and the
// zombies among the children of this process.
bool is_pid(const std::filesystem::path& entry) {
    const std::string name = entry.filename().string();
    return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

std::vector<std::string> processes_with(const std::string& needle) {
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        if (!is_pid(entry.path())) continue;
        std::ifstream cmdline(entry.path() / "cmdline", std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
        if (text.find(needle) != std::string::npos) out.push_back(entry.path().filename().string());
    }
    return out;
}

std::vector<std::string> zombie_children() {
    std::vector<std::string> out;
    const std::string self = std::to_string(::getpid());
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        if (!is_pid(entry.path())) continue;
        std::ifstream stat(entry.path() / "stat");
        const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        char state = 0;
        long ppid = 0;
        if (std::sscanf(text.c_str() + close + 1, " %c %ld", &state, &ppid) == 2 && state == 'Z' &&
            std::to_string(ppid) == self) {
            // pid and name, so that a failure says which program was left unreaped
            const auto open = text.find('(');
            out.push_back(entry.path().filename().string() +
                          (open == std::string::npos ? std::string() : " " + text.substr(open, close - open + 1)));
        }
    }
    return out;
}

}  // namespace

TEST_CASE("run_process: a descendant that left the group with setsid is killed with it, and reaped") {
    // At the timeout, the setsid'd sleep is still the shell's child; in the second script its
    // parent is gone before the end (an orphan, adopted by this process as the subreaper).
    auto out = sh("setsid sleep 987.651 & sleep 987.652", 1000ms);
    CHECK(out.timed_out);
    auto orphan = sh("(setsid sleep 987.653 &); (setsid sleep 987.654 >/dev/null 2>&1 &); sleep 987.655", 1000ms);
    CHECK(orphan.timed_out);
    auto exited = sh("(setsid sleep 987.656 >/dev/null 2>&1 </dev/null &); exit 0", 10000ms);
    CHECK(exited.exit_code == 0);
    // A killed process may take a moment to go and be reaped: polled until both are done or 10 s
    // have passed, then checked.
    std::vector<std::string> left = processes_with("987.65");
    std::vector<std::string> zombies = zombie_children();
    for (const auto give_up = std::chrono::steady_clock::now() + 10s;
         (!left.empty() || !zombies.empty()) && std::chrono::steady_clock::now() < give_up;) {
        std::this_thread::sleep_for(10ms);
        left = processes_with("987.65");
        zombies = zombie_children();
    }
    CHECK_MESSAGE(left.empty(), "still running after 10 s: " << left.size() << " sleep 987.65x processes");
    std::string names;
    for (const auto& z : zombies) names += (names.empty() ? "" : ", ") + z;
    CHECK_MESSAGE(zombies.empty(), zombies.size() << " zombie children left: " << names);
}

TEST_CASE("run_process: the child gets descriptors 0, 1 and 2 only, even one opened without close-on-exec") {
    const int leaked = ::open("/dev/null", O_RDONLY);  // as a library might (no O_CLOEXEC)
    REQUIRE(leaked > 2);
    auto out = sh("ls /proc/self/fd");
    ::close(leaked);
    CHECK(out.exit_code == 0);
    CHECK(out.output == "0\n1\n2\n3\n");  // 3: the listing's own descriptor of /proc/self/fd
}
#endif

TEST_CASE("run_process: cancellation stops it") {
    std::atomic<bool> cancelled{false};
    // Cancelled once the shell has started (it leaves a file first), not after a guessed time.
    const std::filesystem::path started =
        std::filesystem::temp_directory_path() / ("mcp-edit-cancel-started-" + std::to_string(::getpid()));
    std::filesystem::remove(started);
    bool seen_started = false;
    std::thread canceller([&] {
        for (const auto give_up = std::chrono::steady_clock::now() + 15s;
             !seen_started && std::chrono::steady_clock::now() < give_up;) {
            seen_started = std::filesystem::exists(started);
            if (!seen_started) std::this_thread::sleep_for(5ms);
        }
        cancelled = true;
    });
    auto out = sh("echo > '" + started.string() + "'; sleep 30", 20000ms, 1024, &cancelled);
    canceller.join();
    std::filesystem::remove(started);
    CHECK_MESSAGE(seen_started, "the shell never started (no " << started << " within 15 s)");
    CHECK(out.cancelled);
    CHECK_FALSE(out.timed_out);
    CHECK(out.duration < 5000ms);
}

TEST_CASE("run_process: a program that is not there, or a folder that is not there") {
    os::ProcessRun run;
    run.argv = {"mcp-edit-no-such-program-xyz", "a"};
    run.directory = "/tmp";
    auto out = os::run_process(run);
    CHECK_FALSE(out.started);
    CHECK(out.error.find("cannot start mcp-edit-no-such-program-xyz in /tmp: No such file or directory") == 0);
    run.argv = {"true"};
    run.directory = "/no/such/folder";
    CHECK_FALSE(os::run_process(run).started);
}

TEST_CASE("make_private_directory + remove_private_directory: removes what was left inside") {
    auto dir = os::make_private_directory("mcp-edit-test-");
    REQUIRE(dir);
    REQUIRE(os::write_private_file(*dir + "/a.py", "x = 1\n"));
    auto out = sh("mkdir " + *dir + "/__pycache__ && touch " + *dir + "/__pycache__/a.pyc");
    CHECK(out.exit_code == 0);
    CHECK(os::remove_private_directory(*dir));
    CHECK(os::stat_path(*dir).kind == os::FileKind::missing);
}
