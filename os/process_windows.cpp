// Windows implementation of os::run_process and os::ChildProcess (os/process.hpp):
// CreateProcessW with the command line quoted as the C runtime parses it, inside a job object (so
// the timeout, cancellation and stop() end the program and everything it started). run_process:
// stdout and stderr merged into one anonymous pipe that a helper thread drains into a bounded
// buffer. ChildProcess: pipes to its stdin and stdout, stderr drained by a thread of its own. A
// child inherits its three standard handles and nothing else.
#include "os/process.hpp"
#include "os/windows_system.hpp"

#include <windows.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace os {

using win::widen;

namespace {

using Clock = std::chrono::steady_clock;

// One argument quoted so that CommandLineToArgvW and the C runtime give it back unchanged.
std::wstring quoted(const std::wstring& arg) {
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
    std::wstring out = L"\"";
    std::size_t backslashes = 0;
    for (const wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        out += c;
    }
    out.append(backslashes * 2, L'\\');
    out += L'"';
    return out;
}

struct Owned {
    HANDLE h = nullptr;
    Owned() = default;
    explicit Owned(HANDLE handle) : h(handle) {}
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }
    void reset() {
        if (h && h != INVALID_HANDLE_VALUE) CloseHandle(h);
        h = nullptr;
    }
};

// Starts argv inside a new job object (killed with it), with the given standard handles inheritable.
// On success the process is running and owned by `process`; `job` may stay empty if Windows
// refused one. The failure (not_found for a program not found, else io_error) says why in words a
// model can act on.
base::Result<void> launch(const std::vector<std::string>& argv, const std::string& directory, HANDLE in, HANDLE out,
                          HANDLE err, Owned& job, Owned& process) {
    job.h = CreateJobObjectW(nullptr, nullptr);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (job.h) SetInformationJobObject(job.h, JobObjectExtendedLimitInformation, &limits, sizeof limits);

    std::wstring command_line;
    for (const auto& arg : argv) command_line += (command_line.empty() ? L"" : L" ") + quoted(widen(arg));
    STARTUPINFOEXW startup{};
    startup.StartupInfo.cb = sizeof startup;
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = in;
    startup.StartupInfo.hStdOutput = out;
    startup.StartupInfo.hStdError = err;
    // Only the three standard handles are inherited (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), not every
    // inheritable handle the server holds (such as the pipes another thread makes for another child).
    HANDLE handles[3];
    DWORD count = 0;
    for (HANDLE h : {in, out, err})
        if (h && h != INVALID_HANDLE_VALUE && std::find(handles, handles + count, h) == handles + count)
            handles[count++] = h;
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
    std::vector<unsigned char> storage(size);
    auto* attributes = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage.data());
    const bool listed = size > 0 && InitializeProcThreadAttributeList(attributes, 1, 0, &size);
    const bool limited = listed && UpdateProcThreadAttribute(attributes, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles,
                                                             count * sizeof(HANDLE), nullptr, nullptr);
    if (limited) startup.lpAttributeList = attributes;
    PROCESS_INFORMATION info{};
    const std::wstring folder = widen(directory);
    const DWORD flags = CREATE_SUSPENDED | CREATE_NO_WINDOW | (limited ? EXTENDED_STARTUPINFO_PRESENT : 0);
    const BOOL created = CreateProcessW(nullptr, command_line.data(), nullptr, nullptr, TRUE, flags, nullptr,
                                        folder.empty() ? nullptr : folder.c_str(), &startup.StartupInfo, &info);
    const DWORD create_error = GetLastError();
    if (listed) DeleteProcThreadAttributeList(attributes);
    if (!created) {
        const DWORD e = create_error;
        if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
            return base::fail(
                base::Failure{argv[0] + ": program not found (looked up on PATH)", base::ErrorReason::not_found});
        return base::fail(base::Failure{argv[0] + ": cannot start it (Windows error " + std::to_string(e) + ")",
                                        base::ErrorReason::io_error});
    }
    process.h = info.hProcess;
    Owned thread(info.hThread);
    if (job.h) AssignProcessToJobObject(job.h, process.h);
    ResumeThread(thread.h);
    return {};
}

}  // namespace

ProcessOutcome run_process(const ProcessRun& run) {
    ProcessOutcome out;
    const auto start = Clock::now();
    if (run.argv.empty()) {
        out.error = "no program to run";
        return out;
    }
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    Owned read_end, write_end;
    if (!CreatePipe(&read_end.h, &write_end.h, &inherit, 0)) {
        out.error = "cannot create a pipe";
        return out;
    }
    SetHandleInformation(read_end.h, HANDLE_FLAG_INHERIT, 0);
    Owned nul(
        CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, nullptr));

    Owned job, process;
    if (auto launched = launch(run.argv, run.directory, nul.h, write_end.h, write_end.h, job, process); !launched) {
        out.error = std::move(launched.error().message);
        return out;
    }
    write_end.reset();  // the child holds the only write end: the pipe ends when it (and its children) do
    out.started = true;

    std::mutex mutex;
    std::thread reader([&] {
        char buffer[16384];
        DWORD got = 0;
        while (::ReadFile(read_end.h, buffer, sizeof buffer, &got, nullptr) && got > 0) {
            std::lock_guard lock(mutex);
            const std::size_t room = run.max_output - std::min(run.max_output, out.output.size());
            out.output.append(buffer, std::min<std::size_t>(room, got));
            if (got > room) out.output_truncated = true;
        }
    });

    const auto deadline = start + run.timeout;
    for (;;) {
        if (WaitForSingleObject(process.h, 20) == WAIT_OBJECT_0) break;
        if (run.cancelled && run.cancelled->load())
            out.cancelled = true;
        else if (Clock::now() >= deadline)
            out.timed_out = true;
        else
            continue;
        break;
    }
    // Whatever it started goes with it, also after a normal exit (children holding the pipe).
    if (job.h)
        TerminateJobObject(job.h, 1);
    else if (out.timed_out || out.cancelled)
        TerminateProcess(process.h, 1);
    WaitForSingleObject(process.h, 5000);
    reader.join();
    DWORD code = 0;
    if (!out.timed_out && !out.cancelled && GetExitCodeProcess(process.h, &code))
        out.exit_code = static_cast<int>(code);
    out.duration = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return out;
}

struct ChildProcess::State {
    Owned process;
    Owned job;
    Owned input;   // its stdin (our write end)
    Owned output;  // its stdout (our read end)
    Owned errors;  // its stderr (our read end), drained by error_reader
    std::thread error_reader;
    mutable std::mutex error_mutex;
    std::string error_tail;
    std::atomic<bool> stopped{false};
    bool ended = false;  // stop() ran
};

ChildProcess::ChildProcess() : state_(std::make_unique<State>()) {}

ChildProcess::~ChildProcess() { stop(std::chrono::milliseconds(0)); }  // the Owned handles close after

base::Result<void> ChildProcess::start(const std::vector<std::string>& argv, const std::string& directory) {
    if (argv.empty() || argv[0].empty())
        return base::fail(base::Failure{"no program to run", base::ErrorReason::invalid_arguments});
    State& s = *state_;
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    Owned child_in, child_out, child_err;
    if (!CreatePipe(&child_in.h, &s.input.h, &inherit, 0) || !CreatePipe(&s.output.h, &child_out.h, &inherit, 0) ||
        !CreatePipe(&s.errors.h, &child_err.h, &inherit, 0))
        return base::fail(base::Failure{"cannot create a pipe", base::ErrorReason::io_error});
    for (HANDLE ours : {s.input.h, s.output.h, s.errors.h}) SetHandleInformation(ours, HANDLE_FLAG_INHERIT, 0);

    if (auto launched = launch(argv, directory, child_in.h, child_out.h, child_err.h, s.job, s.process); !launched)
        return launched;
    s.error_reader = std::thread([&s] {
        char buffer[4096];
        DWORD got = 0;
        while (::ReadFile(s.errors.h, buffer, sizeof buffer, &got, nullptr) && got > 0) {
            const std::lock_guard lock(s.error_mutex);
            s.error_tail.append(buffer, got);
            if (s.error_tail.size() > max_error_output) s.error_tail.erase(0, s.error_tail.size() - max_error_output);
        }
    });
    return {};
}

bool ChildProcess::write(std::string_view bytes) {
    HANDLE h = state_->input.h;
    if (!h || state_->stopped) return false;
    while (!bytes.empty()) {
        DWORD wrote = 0;
        const DWORD part = static_cast<DWORD>(std::min<std::size_t>(bytes.size(), 1u << 20));
        if (!::WriteFile(h, bytes.data(), part, &wrote, nullptr) || wrote == 0) return false;
        bytes.remove_prefix(wrote);
    }
    return true;
}

std::size_t ChildProcess::read(char* buffer, std::size_t size) {
    HANDLE h = state_->output.h;
    DWORD got = 0;
    if (!h || !::ReadFile(h, buffer, static_cast<DWORD>(std::min<std::size_t>(size, 1u << 20)), &got, nullptr))
        return 0;
    return got;
}

void ChildProcess::stop(std::chrono::milliseconds grace) {
    State& s = *state_;
    if (s.ended || !s.process.h) return;
    s.ended = true;
    const bool exited = WaitForSingleObject(s.process.h, static_cast<DWORD>(grace.count())) == WAIT_OBJECT_0;
    s.stopped = true;  // writes go on during the grace (a last message), not after
    if (!exited) {
        if (s.job.h)
            TerminateJobObject(s.job.h, 1);
        else
            TerminateProcess(s.process.h, 1);
        WaitForSingleObject(s.process.h, 5000);
    } else if (s.job.h) {
        TerminateJobObject(s.job.h, 1);  // what it started goes with it
    }
    if (s.error_reader.joinable()) s.error_reader.join();
}

std::string ChildProcess::error_output() const {
    const std::lock_guard lock(state_->error_mutex);
    return state_->error_tail;
}

}  // namespace os
