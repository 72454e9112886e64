// The bound on replies waiting for a client that stops reading: the bytes queued for stdout, seen
// from every thread, and an executor for the blocking pool that starts no new work while they are over it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <utility>

#include "server/wrapped_executor.hpp"

namespace server {

// Bytes of output queued and not yet written. The transport adds and removes them (io thread);
// pool threads wait for room before they start a piece of work, which is where replies are built.
// With the pool's few threads, what is queued stays under limit + (pool threads x one reply).
class OutputBudget {
public:
    explicit OutputBudget(std::size_t limit) : limit_(limit) {}

    void add(std::size_t bytes) {
        std::lock_guard lock(mutex_);
        queued_ += bytes;
    }
    void remove(std::size_t bytes) {
        {
            std::lock_guard lock(mutex_);
            queued_ -= std::min(queued_, bytes);
            if (queued_ > limit_) return;
        }
        room_.notify_all();
    }
    // Output failed for good: nothing will drain, and nothing needs to wait any more.
    void open_for_good() {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        room_.notify_all();
    }
    // Blocks the calling (pool) thread while the queued bytes are over the limit.
    void wait_for_room() {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [this] { return open_ || queued_ <= limit_; });
    }
    std::size_t limit() const { return limit_; }

private:
    const std::size_t limit_;
    std::mutex mutex_;
    std::condition_variable room_;
    std::size_t queued_ = 0;
    bool open_ = false;
};

// An executor over the blocking pool's: each function it is given waits for room in the budget
// on the pool thread that runs it, then runs. Everything else is the inner executor's.
class BudgetedExecutor : public WrappedExecutor<BudgetedExecutor, OutputBudget*> {
public:
    using WrappedExecutor::WrappedExecutor;

    template <class Function>
    void execute(Function f) const {
        inner().execute([budget = state(), f = std::move(f)]() mutable {
            budget->wait_for_room();
            std::move(f)();
        });
    }
};

}  // namespace server
