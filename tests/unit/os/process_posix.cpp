// Unit tests of platform::run_process: exit codes, merged bounded output, the working directory,
// the timeout and cancellation killing the whole process group, a program that is not there.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "os/platform.hpp"

using namespace std::chrono_literals;

namespace {

platform::ProcessOutcome sh(const std::string& script, std::chrono::milliseconds timeout = 5000ms,
                            std::size_t max_output = 64 * 1024, const std::atomic<bool>* cancelled = nullptr) {
    platform::ProcessRun run;
    run.argv = {"sh", "-c", script};
    run.directory = "/tmp";
    run.timeout = timeout;
    run.max_output = max_output;
    run.cancelled = cancelled;
    return platform::run_process(run);
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

TEST_CASE("run_process: cancellation stops it") {
    std::atomic<bool> cancelled{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(200ms);
        cancelled = true;
    });
    auto out = sh("sleep 30", 20000ms, 1024, &cancelled);
    canceller.join();
    CHECK(out.cancelled);
    CHECK_FALSE(out.timed_out);
    CHECK(out.duration < 5000ms);
}

TEST_CASE("run_process: a program that is not there, or a folder that is not there") {
    platform::ProcessRun run;
    run.argv = {"mcp-edit-no-such-program-xyz", "a"};
    run.directory = "/tmp";
    auto out = platform::run_process(run);
    CHECK_FALSE(out.started);
    CHECK(out.error.find("cannot start mcp-edit-no-such-program-xyz in /tmp: No such file or directory") == 0);
    run.argv = {"true"};
    run.directory = "/no/such/folder";
    CHECK_FALSE(platform::run_process(run).started);
}

TEST_CASE("make_private_directory + remove_private_directory: removes what was left inside") {
    auto dir = platform::make_private_directory("mcp-edit-test-");
    REQUIRE(dir);
    REQUIRE(platform::write_private_file(*dir + "/a.py", "x = 1\n"));
    auto out = sh("mkdir " + *dir + "/__pycache__ && touch " + *dir + "/__pycache__/a.pyc");
    CHECK(out.exit_code == 0);
    CHECK(platform::remove_private_directory(*dir));
    CHECK(platform::stat_path(*dir).kind == platform::FileKind::missing);
}
