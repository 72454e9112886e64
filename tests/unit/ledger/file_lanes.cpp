// Unit tests of ledger/file_lanes: one holder per lane, FIFO hand-over, parallel lanes, idle
// lanes freed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>

#include "ledger/file_lanes.hpp"

TEST_CASE("file lanes: same key in arrival order, one at a time; other keys in parallel") {
    asio::io_context io;
    ledger::FileLanes lanes(io.get_executor());
    std::vector<std::string> log;
    int inside_a = 0, max_inside_a = 0;
    auto worker = [&](std::string key, std::string name, int hold_ms) -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire(key);
        if (key == "a") max_inside_a = std::max(max_inside_a, ++inside_a);
        log.push_back(name + "+");
        asio::steady_timer t(io, std::chrono::milliseconds(hold_ms));
        co_await t.async_wait(asio::use_awaitable);  // held across a suspension
        log.push_back(name + "-");
        if (key == "a") --inside_a;
    };
    asio::co_spawn(io, worker("a", "a1", 20), asio::detached);
    asio::co_spawn(io, worker("a", "a2", 1), asio::detached);
    asio::co_spawn(io, worker("b", "b1", 5), asio::detached);
    asio::co_spawn(io, worker("a", "a3", 1), asio::detached);
    io.run();
    CHECK(max_inside_a == 1);
    const std::vector<std::string> a_order = [&] {
        std::vector<std::string> v;
        for (auto& e : log)
            if (e[0] == 'a') v.push_back(e);
        return v;
    }();
    CHECK(a_order == std::vector<std::string>{"a1+", "a1-", "a2+", "a2-", "a3+", "a3-"});
    // b ran while a1 held its lane.
    const auto b_start = std::find(log.begin(), log.end(), "b1+") - log.begin();
    const auto a1_end = std::find(log.begin(), log.end(), "a1-") - log.begin();
    CHECK(b_start < a1_end);
    CHECK(lanes.lanes() == 0);
}

TEST_CASE("file lanes: a moved guard releases once") {
    asio::io_context io;
    ledger::FileLanes lanes(io.get_executor());
    bool second_ran = false;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            auto g = co_await lanes.acquire("k");
            ledger::FileLanes::Guard moved = std::move(g);
            CHECK_FALSE(g.held());
            CHECK(moved.held());
        },
        asio::detached);
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            auto g = co_await lanes.acquire("k");
            second_ran = true;
        },
        asio::detached);
    io.run();
    CHECK(second_ran);
    CHECK(lanes.lanes() == 0);
}

TEST_CASE("file lanes: a read goes past a holder waiting for a human; changes keep their places") {
    asio::io_context io;
    ledger::FileLanes lanes(io.get_executor());
    std::vector<std::string> log;
    auto holder = [&]() -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire("k");
        log.push_back("holder+");
        asio::steady_timer t(io, std::chrono::milliseconds(30));
        co_await t.async_wait(asio::use_awaitable);
        lanes.let_reads_pass("k", true);
        log.push_back("holder waits for a human");
        t.expires_after(std::chrono::milliseconds(100));
        co_await t.async_wait(asio::use_awaitable);
        lanes.let_reads_pass("k", false);
        log.push_back("holder-");
    };
    auto change = [&]() -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire("k");
        log.push_back(std::string("change+") + (guard.held() ? "" : " (not held!)"));
    };
    auto reader = [&](std::string name) -> asio::awaitable<void> {
        auto guard = co_await lanes.acquire_for_read("k");
        log.push_back(name + (guard.held() ? " with the lane" : " without the lane"));
    };
    asio::co_spawn(io, holder(), asio::detached);
    asio::co_spawn(io, change(), asio::detached);
    asio::co_spawn(io, reader("read 1"), asio::detached);
    asio::steady_timer later(io, std::chrono::milliseconds(60));
    later.async_wait([&](std::error_code) { asio::co_spawn(io, reader("read 2"), asio::detached); });
    asio::steady_timer after(io, std::chrono::milliseconds(250));
    after.async_wait([&](std::error_code) { asio::co_spawn(io, reader("read 3"), asio::detached); });
    io.run();
    CHECK(log == std::vector<std::string>{"holder+", "holder waits for a human", "read 1 without the lane",
                                          "read 2 without the lane", "holder-", "change+", "read 3 with the lane"});
    CHECK(lanes.lanes() == 0);
}
