// The blocking pool whose threads start late: when the pool is first given work or once the first
// reply is written, whichever comes first, so that no thread is created before the server's
// first answer (each one was a point where the scheduler could give the main thread's core to
// another process). DeferredPoolThreads owns the threads; StartingExecutor is the pool's executor
// that starts them.
#pragma once

#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include <asio/thread_pool.hpp>

#include "server/wrapped_executor.hpp"

namespace server {

// The blocking pool's threads, started when the pool is first given work or once the first reply
// is written, whichever comes first. Created before that reply, each thread was one more point
// where the scheduler could give the main thread's core to another process; on two busy cores
// that delayed the initialize reply by a millisecond in the median.
class DeferredPoolThreads {
public:
    DeferredPoolThreads(asio::thread_pool& pool, std::size_t count) : pool_(pool), count_(count) {}
    DeferredPoolThreads(const DeferredPoolThreads&) = delete;
    DeferredPoolThreads& operator=(const DeferredPoolThreads&) = delete;
    ~DeferredPoolThreads() {
        if (threads_.empty() || !threads_.front().joinable()) return;
        pool_.stop();  // main left early (an exception): abandon the pool's work, as its destructor would
        for (auto& thread : threads_) thread.join();
    }

    // Any thread, any number of times: the threads start once.
    void start() {
        std::call_once(started_, [this] {
            for (std::size_t i = 0; i < count_; ++i) threads_.emplace_back([this] { pool_.attach(); });
        });
    }
    // The pool's join(): its threads finish the work given to it, then end. None start after this.
    void join() {
        pool_.wait();
        std::call_once(started_, [] {});
        for (auto& thread : threads_) thread.join();
    }

private:
    asio::thread_pool& pool_;
    const std::size_t count_;
    std::once_flag started_;
    std::vector<std::thread> threads_;
};

// The pool's executor, which starts the pool's threads when it is first given work. The
// properties are BudgetedExecutor's, which wraps it.
class StartingExecutor : public WrappedExecutor<StartingExecutor, DeferredPoolThreads*> {
public:
    using WrappedExecutor::WrappedExecutor;

    template <class Function>
    void execute(Function f) const {
        state()->start();
        inner().execute(std::move(f));
    }
};

}  // namespace server
