// Where a call's work runs: on the io thread itself or on the blocking pool. The one place that
// decides it, from the sizes involved and whether the call is alone in flight (ctx.scope.alone()).
// Small work done by a lone call takes microseconds, less than two thread hand-overs; large work,
// or work beside other calls in flight, goes to the pool so that nothing holds the others up.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

#include "tools/tool.hpp"

namespace tools {

class WorkPlacement {
public:
    // Files up to this size are read, planned and written on the io thread itself (when the call
    // is alone): their work takes microseconds, less than two thread hand-overs.
    static constexpr std::uint64_t inline_work_bytes = 256 * 1024;

    // Is work over these many bytes short enough to run inline?
    static bool small(std::uint64_t bytes) { return bytes <= inline_work_bytes; }
    static bool small(std::initializer_list<std::uint64_t> sizes) { return all_small(sizes); }
    static bool small(const std::vector<std::uint64_t>& sizes) { return all_small(sizes); }

    // Asked now (the number of calls in flight changes while a call waits): run inline?
    static bool inline_now(const CallContext& ctx, std::initializer_list<std::uint64_t> sizes) {
        return ctx.scope.alone() && small(sizes);
    }
    static bool inline_now(const CallContext& ctx, const std::vector<std::uint64_t>& sizes) {
        return ctx.scope.alone() && small(sizes);
    }

    // A lone call that will write keeps the file open until its reply is out (see
    // ToolResult::after_reply); with many calls in flight, descriptors are not held.
    static bool keep_open(bool alone, bool dry_run) { return alone && !dry_run; }

    // Runs `work` inline or on the pool, as `run_inline` says.
    template <class Work>
    static auto run(const CallContext& ctx, bool run_inline, Work work) -> asio::awaitable<decltype(work())> {
        return run(ctx.blocking, run_inline, std::move(work));
    }
    template <class Work>
    static auto run(asio::any_io_executor blocking, bool run_inline, Work work) -> asio::awaitable<decltype(work())> {
        if (run_inline) co_return work();
        co_return co_await offload(blocking, std::move(work));
    }

    // Bookkeeping after the reply (see ToolResult::after_reply) over files of these sizes: inline
    // when they are all small, whether or not other calls are in flight (it is short and it holds
    // the files' lanes), else on the pool.
    template <class Work>
    static std::function<asio::awaitable<void>()> after_reply(asio::any_io_executor blocking,
                                                              const std::vector<std::uint64_t>& sizes, Work work) {
        return [blocking = std::move(blocking), run_inline = small(sizes),
                work = std::move(work)]() -> asio::awaitable<void> {
            co_await run(blocking, run_inline, [&work] {
                work();
                return true;
            });
        };
    }

private:
    template <class Sizes>
    static bool all_small(const Sizes& sizes) {
        return std::all_of(sizes.begin(), sizes.end(), [](std::uint64_t n) { return small(n); });
    }
};

}  // namespace tools
