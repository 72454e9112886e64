// Child processes: a program run to completion (a post-write check) and a program kept running and
// spoken to through its standard input and output (a language server), each ended with everything
// it started. POSIX in process_posix.cpp and child_process_posix.cpp (both through
// process_tree_posix.hpp); Windows in process_windows.cpp.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace os {

// A program run to completion with no shell: argv[0] looked up on PATH, in `directory`, with the
// server's environment, stdin empty, stdout and stderr merged into one bounded buffer. It runs in
// a process group of its own, killed whole at the deadline or when `cancelled` turns true.
// POSIX: posix_spawn + poll (os/process_posix.cpp); Windows needs CreateProcessW with a job object.

struct ProcessRun {
    std::vector<std::string> argv;  // argv[0]: the program
    std::string directory;          // working directory
    std::chrono::milliseconds timeout{10000};
    std::size_t max_output = 64 * 1024;  // bytes kept of the merged output; the rest is read and dropped
    const std::atomic<bool>* cancelled = nullptr;
};

struct ProcessOutcome {
    bool started = false;  // false: `error` says why (program not found, ...)
    std::string error;
    std::optional<int> exit_code;  // nullopt when it ended by a signal (or was killed)
    int signal = 0;                // the signal that ended it, 0 when it exited
    bool timed_out = false;
    bool cancelled = false;
    std::string output;  // stdout and stderr as they came, at most max_output bytes
    bool output_truncated = false;
    std::chrono::milliseconds duration{0};
};

ProcessOutcome run_process(const ProcessRun& run);

// A program kept running and spoken to through its standard input and output (a language
// server). What it writes to stderr is read on a thread of its own; the last max_error_output
// bytes are kept for messages. Started in a process group (POSIX) or job object (Windows) of its
// own, so stop() ends what it started too. One thread reads, one writes at a time.
class ChildProcess {
public:
    static constexpr std::size_t max_error_output = 4096;

    ChildProcess();
    ~ChildProcess();  // stop(0)
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Fails when it cannot be started: not_found for a program that is not there (not on PATH, or
    // the directory missing), invalid_arguments for an empty argv, io_error otherwise; the message
    // says why ("cannot start clangd in /p: No such file or directory (is it installed ...)").
    base::Result<void> start(const std::vector<std::string>& argv, const std::string& directory);
    // Blocks until all is written; false once it stopped reading (it exited).
    bool write(std::string_view bytes);
    // Blocks until some output is there; 0 at the end of its output.
    std::size_t read(char* buffer, std::size_t size);
    // Waits at most `grace` for it to exit (ask it to first), then kills it and what it started,
    // and reaps it. read() then returns 0 and write() false; the pipes are closed by the
    // destructor, so a thread still in read() or write() is safe. Safe to call more than once.
    void stop(std::chrono::milliseconds grace);
    std::string error_output() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace os
