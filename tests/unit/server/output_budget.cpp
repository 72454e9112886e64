// The output budget and the pool executor it gates: work posted while the output queued is over
// the limit does not start until enough is written (or output breaks), and then it does.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <asio/post.hpp>
#include <asio/thread_pool.hpp>

#include "server/output_budget.hpp"

namespace {

bool eventually(const std::atomic<bool>& flag) {
    for (int i = 0; i < 2000 && !flag.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return flag.load();
}

}  // namespace

TEST_CASE("output budget: pool work waits while the output is over the limit, and starts once it drains") {
    asio::thread_pool pool(2);
    server::OutputBudget budget(100);
    const asio::any_io_executor gated = server::BudgetedExecutor(pool.get_executor(), &budget);
    std::atomic<bool> ran{false};
    asio::post(gated, [&ran] { ran = true; });
    CHECK(eventually(ran));  // room: it runs

    budget.add(150);  // a client that stopped reading
    ran = false;
    asio::post(gated, [&ran] { ran = true; });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(ran.load());
    budget.remove(40);  // 110: still over
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(ran.load());
    budget.remove(10);  // 100: at the limit, room again
    CHECK(eventually(ran));

    budget.add(1000);
    ran = false;
    asio::post(gated, [&ran] { ran = true; });
    budget.open_for_good();  // output broke: nothing will drain, nothing waits
    CHECK(eventually(ran));
    pool.join();
}
