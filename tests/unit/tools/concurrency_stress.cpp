// Concurrency stress of the tool handlers as the session runs them: coroutines on one io thread,
// file work on a real multi-threaded pool, hundreds of edits, inserts, reads and cancellations in
// flight at once, on one file and on many, some approvals waiting (with reads going past them).
// Under ThreadSanitizer (MCP_EDIT_SANITIZE=thread scripts/test) it is the race detector's
// workload; in every build it checks that no update is lost and each result tells the truth.
#include <doctest/doctest.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/thread_pool.hpp>
#include <asio/use_awaitable.hpp>
#include <unistd.h>

#include "tools/pipeline/change.hpp"
#include "tests/unit/tools/handlers.hpp"
#include "tools/registry.hpp"

namespace fs = std::filesystem;
using tools::Json;

namespace {

struct Stress {
    fs::path root;
    asio::io_context io;
    asio::thread_pool pool{4};
    os::Workspace workspace;
    ledger::FileStates states;
    ledger::FileLanes lanes{io.get_executor()};
    ledger::History history;
    std::mt19937 random{12345};
    // One context per call (each has its own cancellation flag); stable addresses.
    tools::WorkbenchSettings settings = [] {
        tools::WorkbenchSettings s;
        s.fsync = false;
        return s;
    }();
    std::deque<tools::CallScope> scopes;  // one per call: each has its own cancellation
    std::deque<tools::CallContext> contexts;
    std::deque<Json> arguments;
    struct Outcome {
        std::string tool;
        std::string marker;  // what the change writes (empty for a read)
        std::string file;
        bool cancelled = false;
        std::optional<tools::ToolResult> result;
    };
    std::deque<Outcome> outcomes;

    static fs::path make_root() {
        fs::path p = fs::temp_directory_path() / ("mcp-edit-stress-" + std::to_string(::getpid()));
        fs::create_directories(p);
        return fs::canonical(p);
    }
    Stress() : root(make_root()), workspace({root.string()}) {}
    ~Stress() {
        pool.join();
        fs::remove_all(root);
    }

    void put(const std::string& name, const std::string& bytes) {
        std::ofstream(root / name, std::ios::binary) << bytes;
    }
    std::string get(const std::string& name) const {
        std::ifstream in(root / name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }

    // A gate that answers after 0-3 ms; every third one says it waits for a human first (reads
    // then go past it, from the disk, on the pool, while it waits).
    tools::ApprovalGate gate() {
        const int delay_ms = static_cast<int>(random() % 4);
        const bool human = random() % 3 == 0;
        return [this, delay_ms, human](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
            if (human && ask.waiting_for_human) ask.waiting_for_human();
            asio::steady_timer t(io, std::chrono::milliseconds(delay_ms));
            co_await t.async_wait(asio::use_awaitable);
            tools::ApprovalDecision d;
            d.kind = tools::ApprovalDecision::Kind::approved;
            d.approval = tools::ApprovalSource::user;
            co_return d;
        };
    }

    // Starts `tool` after `after_ms`; cancels it `cancel_after_ms` after its start when >= 0.
    void start(const std::string& tool, Json args, std::string file, std::string marker, int after_ms,
               int cancel_after_ms = -1) {
        auto& ctx = contexts.emplace_back(
            tools::CallContext{settings, scopes.emplace_back(), workspace, states, lanes, pool.get_executor()});
        ctx.history = &history;
        ctx.approve = gate();
        const Json& stored = arguments.emplace_back(std::move(args));
        Outcome& outcome = outcomes.emplace_back(
            Outcome{tool, std::move(marker), std::move(file), cancel_after_ms >= 0, std::nullopt});
        tools::Handler handler = tool == "read"     ? tools::read_handler()
                                 : tool == "insert" ? tools::insert_handler()
                                                    : tools::edit_handler();
        auto begin = std::make_shared<asio::steady_timer>(io, std::chrono::milliseconds(after_ms));
        begin->async_wait([this, begin, handler, &ctx, &stored, &outcome, cancel_after_ms](std::error_code) {
            const auto call_and_bookkeeping = [handler, &ctx, &stored]() -> asio::awaitable<tools::ToolResult> {
                tools::ToolResult result = co_await handler(ctx, stored);
                if (result.after_reply) co_await result.after_reply();
                result.after_reply = nullptr;  // releases the lane it holds
                co_return result;
            };
            asio::co_spawn(io, call_and_bookkeeping, [&outcome](std::exception_ptr error, tools::ToolResult result) {
                if (error) std::rethrow_exception(error);
                outcome.result = std::move(result);
            });
            if (cancel_after_ms < 0) return;
            auto cancel = std::make_shared<asio::steady_timer>(io, std::chrono::milliseconds(cancel_after_ms));
            cancel->async_wait([cancel, &ctx](std::error_code) { ctx.scope.cancelled->store(true); });
        });
    }
};

std::string numbered_lines(const std::string& prefix, int n) {
    std::string out;
    for (int i = 1; i <= n; ++i) out += prefix + std::to_string(i) + "\n";
    return out;
}

}  // namespace

TEST_CASE("stress: hundreds of edits, reads and cancellations on one file and on many; no update lost") {
    Stress s;
    constexpr int lines = 300;
    constexpr int files = 40;
    s.put("one.txt", numbered_lines("line ", lines));
    for (int f = 0; f < files; ++f) s.put("f" + std::to_string(f) + ".txt", numbered_lines("row ", 8));

    // One file: an edit of every line, a read after every few, every tenth edit cancelled at a
    // random moment (it lands or not, and its result must say which).
    for (int i = 1; i <= lines; ++i) {
        const std::string old_line = "line " + std::to_string(i) + "\n";
        const std::string new_line = "LINE " + std::to_string(i) + "\n";
        const int when = static_cast<int>(s.random() % 40);
        const int cancel = i % 10 == 0 ? static_cast<int>(s.random() % 30) : -1;
        s.start("edit", {{"file_path", "one.txt"}, {"old_string", old_line}, {"new_string", new_line}}, "one.txt",
                new_line, when, cancel);
        if (i % 3 == 0) s.start("read", {{"file_path", "one.txt"}}, "one.txt", "", when);
    }
    // Many files: four edits and two reads each, plus an insert at the end (needs no read).
    for (int f = 0; f < files; ++f) {
        const std::string name = "f" + std::to_string(f) + ".txt";
        for (int r = 1; r <= 4; ++r) {
            const std::string new_line = "ROW " + std::to_string(r) + " of " + name + "\n";
            s.start("edit",
                    {{"file_path", name}, {"old_string", "row " + std::to_string(r) + "\n"}, {"new_string", new_line}},
                    name, new_line, static_cast<int>(s.random() % 40), r == 4 ? static_cast<int>(s.random() % 20) : -1);
        }
        s.start("read", {{"file_path", name}}, name, "", static_cast<int>(s.random() % 40));
        s.start("read", {{"file_path", name}}, name, "", static_cast<int>(s.random() % 40));
        const std::string tail = "tail of " + name + "\n";
        s.start("insert", {{"file_path", name}, {"line", -1}, {"text", tail}}, name, tail,
                static_cast<int>(s.random() % 40));
    }
    const std::size_t calls = s.outcomes.size();
    CHECK(calls == static_cast<std::size_t>(lines + lines / 3 + files * 7));
    s.io.run();

    std::size_t changes = 0, reads = 0, cancelled_refused = 0;
    for (const auto& o : s.outcomes) {
        REQUIRE(o.result.has_value());
        const std::string now = s.get(o.file);
        if (o.tool == "read") {
            CHECK_MESSAGE(!o.result->is_error, "read of " << o.file << ": " << o.result->text);
            ++reads;
            continue;
        }
        const bool on_disk = now.find(o.marker) != std::string::npos;
        if (o.result->is_error) {
            INFO(o.result->text);
            CHECK(o.cancelled);  // only a cancellation may stop a change here
            CHECK(o.result->text.find("Cancelled by the client; nothing was written.") != std::string::npos);
            CHECK_FALSE(on_disk);
            ++cancelled_refused;
        } else {
            CHECK(on_disk);
            ++changes;
        }
    }
    CHECK(reads == static_cast<std::size_t>(lines / 3 + 2 * files));
    CHECK(changes + cancelled_refused + reads == calls);
    CHECK(s.lanes.lanes() == 0);
    MESSAGE("stress: " << changes << " changes written, " << cancelled_refused << " cancelled, " << reads << " reads");
}
