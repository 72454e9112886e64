// What every tool handler sees and returns: the call's context (workspace, session file states,
// limits, where blocking work runs, cancellation, progress) and a result the session turns into
// a CallToolResult. Kept apart from the registry so tools do not depend on dispatch.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/co_spawn.hpp>
#include <asio/use_awaitable.hpp>
#include <nlohmann/json.hpp>

#include "server/workspace.hpp"
#include "tools/file_lanes.hpp"
#include "tools/file_states.hpp"

namespace tools {

using Json = nlohmann::json;

struct Limits {
    std::uint64_t max_file_size = 256ull << 20;
    std::size_t max_result_text = 1u << 20;  // bytes of text a result may carry
};

struct CallContext {
    const server::Workspace& workspace;
    FileStates& file_states;
    FileLanes& lanes;
    Limits limits;
    asio::any_io_executor blocking;  // where file I/O and heavy computation run
    bool fsync = true;
    std::shared_ptr<std::atomic<bool>> cancelled = std::make_shared<std::atomic<bool>>(false);
    // Reports progress (progress, total, message) when the client gave a progressToken.
    std::function<void(double, double, std::string)> progress = [](double, double, std::string) {};
};

struct ToolResult {
    bool is_error = false;
    std::string text;       // content[0]
    Json structured;        // structuredContent (null when none; never on errors)
    std::string extra_text; // content[1] when non-empty

    static ToolResult error(std::string message) {
        ToolResult r;
        r.is_error = true;
        r.text = std::move(message);
        return r;
    }
};

using Handler = std::function<asio::awaitable<ToolResult>(CallContext&, const Json& args)>;

// Runs `work` (a callable returning T) on the blocking executor and resumes the caller on its
// own executor with the value.
template <class Work>
auto offload(const asio::any_io_executor& blocking, Work work)
    -> asio::awaitable<decltype(work())> {
    using T = decltype(work());
    co_return co_await asio::co_spawn(
        blocking, [w = std::move(work)]() mutable -> asio::awaitable<T> { co_return w(); },
        asio::use_awaitable);
}

}  // namespace tools
