// What the tools' unit tests share: a temporary workspace root, a real io_context, the session's
// file states and lanes, and a call context over them; helpers to put and get files, to load a
// snapshot, and to call a tool handler in process as the session would (its after-reply
// bookkeeping run, its lane freed).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <unistd.h>

#include "tests/unit/tools/handlers.hpp"
#include "tools/registry.hpp"
#include "tools/pipeline/transaction.hpp"
#include "tools/workbench.hpp"

namespace tools_test {

namespace fs = std::filesystem;
using tools::Json;

inline tools::ToolResult& result_of(tools::ToolResult& result) { return result; }
inline tools::ToolResult& result_of(tools::CallOutcome& outcome) { return outcome.result; }

struct Fixture {
    fs::path root;
    asio::io_context io;
    os::Workspace workspace;
    ledger::FileStates states;
    ledger::FileLanes lanes{io.get_executor()};
    tools::WorkbenchSettings settings;  // what ctx reads; a test may change it before a call
    tools::CallScope scope;
    tools::CallContext ctx;

    static fs::path make_root() {
        static int counter = 0;
        fs::path p = fs::temp_directory_path() /
                     ("mcp-edit-tools-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(p);
        return fs::canonical(p);
    }
    explicit Fixture(bool sync = false)
        : root(make_root()), workspace({root.string()}), ctx{settings, scope, workspace,
                                                             states,   lanes, io.get_executor()} {
        settings.fsync = sync;
    }
    ~Fixture() { fs::remove_all(root); }

    void put(const std::string& name, const std::string& bytes) {
        fs::create_directories((root / name).parent_path());
        std::ofstream(root / name, std::ios::binary) << bytes;
    }
    std::string get(const std::string& name) const {
        std::ifstream in(root / name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    // With / between names on every system (the form the workspace resolves paths to).
    std::string path(const std::string& name) const { return (root / name).generic_string(); }
    // How many files and folders the root holds (a temp file left behind shows here).
    std::size_t entries() const {
        std::size_t n = 0;
        for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) ++n;
        return n;
    }
    // The file as a change would load it.
    tools::FileSnapshot snapshot(const std::string& name) {
        tools::FileSnapshot s;
        auto resolved = workspace.resolve(name);
        REQUIRE(resolved.ok());
        s.file.path = std::move(resolved).value();
        s.exists = s.file.path.exists;
        if (s.exists) REQUIRE(tools::load_text_file(ctx, name, s.file).ok());
        return s;
    }

    // Starts a call; its result lands in `out` once the io_context has run it. The session runs
    // the bookkeeping after the reply (file states, history) and then frees the lane: so here.
    void start(tools::Handler handler, Json args, std::optional<tools::ToolResult>& out,
               std::vector<std::string>* log = nullptr, std::string name = "") {
        asio::co_spawn(
            io,
            [this, handler = std::move(handler), args = std::move(args)]() -> asio::awaitable<tools::ToolResult> {
                tools::ToolResult result = co_await handler(ctx, args);
                if (result.after_reply) co_await result.after_reply();
                result.after_reply = nullptr;  // releases the lane it holds
                co_return result;
            },
            [&out, log, name](std::exception_ptr error, tools::ToolResult result) {
                if (error) std::rethrow_exception(error);
                if (log) log->push_back(name);
                out = std::move(result);
            });
    }
    tools::ToolResult call(tools::Handler handler, Json args) {
        std::optional<tools::ToolResult> out;
        start(std::move(handler), std::move(args), out);
        io.restart();
        io.run();
        REQUIRE(out.has_value());
        return std::move(*out);
    }
    tools::ToolResult read(const std::string& name) { return call(tools::read_handler(), {{"file_path", path(name)}}); }
    tools::ToolResult insert(const std::string& name, long long line, const std::string& text) {
        return call(tools::insert_handler(), {{"file_path", path(name)}, {"line", line}, {"text", text}});
    }
    tools::ToolResult apply_diff(const std::string& diff) {
        return call(tools::apply_diff_handler(), {{"file_path", path("x.txt")}, {"diff", diff}});
    }
};

inline bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Runs `call` (a handler's, or a workbench's) on `io` to its end, then the bookkeeping after its
// reply (as the session does once the reply is out), and returns what it gave.
template <class Outcome>
Outcome run_to_end(asio::io_context& io, asio::awaitable<Outcome> call) {
    std::optional<Outcome> out;
    asio::co_spawn(
        io,
        [call = std::move(call)]() mutable -> asio::awaitable<Outcome> {
            Outcome outcome = co_await std::move(call);
            tools::ToolResult& result = result_of(outcome);
            if (result.after_reply) co_await result.after_reply();
            result.after_reply = nullptr;  // releases the lane it holds
            co_return outcome;
        },
        [&out](std::exception_ptr error, Outcome outcome) {
            if (error) std::rethrow_exception(error);
            out = std::move(outcome);
        });
    io.restart();
    io.run();
    REQUIRE(out.has_value());
    return std::move(*out);
}

// A gate that approves every change at once, as `source`, after handing the request to `seen` (which
// may change the disk meanwhile, as a human's editor can while the form is open).
inline tools::ApprovalGate approving(std::function<void(const tools::ApprovalRequest&)> seen,
                                     tools::ApprovalSource source = tools::ApprovalSource::user) {
    return [seen = std::move(seen),
            source](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
        if (seen) seen(ask);
        tools::ApprovalDecision d;
        d.kind = tools::ApprovalDecision::Kind::approved;
        d.approval = source;
        co_return d;
    };
}

// The search tools called on `f`, as several test files call them.
inline tools::ToolResult list(Fixture& f, Json args) { return f.call(tools::list_handler(), std::move(args)); }
inline tools::ToolResult find(Fixture& f, Json args) { return f.call(tools::find_handler(), std::move(args)); }
inline tools::ToolResult grep(Fixture& f, Json args) { return f.call(tools::grep_handler(), std::move(args)); }

// The result of a handler's call, or of a workbench's (which says too which tool served it).
inline tools::ToolResult run_call(asio::io_context& io, asio::awaitable<tools::ToolResult> call) {
    return run_to_end(io, std::move(call));
}
inline tools::ToolResult run_call(asio::io_context& io, asio::awaitable<tools::CallOutcome> call) {
    return run_to_end(io, std::move(call)).result;
}

}  // namespace tools_test
