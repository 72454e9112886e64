// The per-file mutation queue: one lane per file, an async lock that can be held across a
// co_await (reading, the approval wait, the write). Calls on one file run in arrival order;
// different files run in parallel. Lanes exist only while held or waited for.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <vector>
#include <unordered_map>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>
#include <asio/steady_timer.hpp>

namespace ledger {

class FileLanes {
public:
    // Releases its lane when destroyed; movable, not copyable.
    class Guard {
    public:
        Guard() = default;
        Guard(FileLanes* lanes, std::string key, bool waited = false)
            : lanes_(lanes), key_(std::move(key)), waited_(waited) {}
        Guard(Guard&& other) noexcept : lanes_(other.lanes_), key_(std::move(other.key_)), waited_(other.waited_) {
            other.lanes_ = nullptr;
        }
        Guard& operator=(Guard&& other) noexcept {
            if (this != &other) {
                release();
                lanes_ = other.lanes_;
                key_ = std::move(other.key_);
                waited_ = other.waited_;
                other.lanes_ = nullptr;
            }
            return *this;
        }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;
        ~Guard() { release(); }
        void release();
        const std::string& key() const { return key_; }
        bool held() const { return lanes_ != nullptr; }
        // Whether the lane was held by another call first (time passed: what was checked before
        // acquiring it may have changed).
        bool waited() const { return waited_; }

    private:
        FileLanes* lanes_ = nullptr;
        std::string key_;
        bool waited_ = false;
    };

    // All use must be on the thread of `executor` (the session's io_context).
    explicit FileLanes(asio::any_io_executor executor) : executor_(std::move(executor)) {}

    asio::awaitable<Guard> acquire(std::string key);

    // The lanes of `keys` (of several files: a patch, a move), each once, taken in sorted order so
    // that two such changes never wait for each other's lanes in a circle.
    asio::awaitable<std::vector<Guard>> acquire_all(std::vector<std::string> keys);

    // For a read, which changes nothing: takes the lane like acquire (so it sees every change that
    // arrived before it), except while the lane's holder lets reads pass (it waits for a human at an
    // open approval form, or runs post-write checks on bytes already committed): then it returns at
    // once, or as soon as the holder starts letting them pass, with a Guard that holds nothing, and
    // the read is served from the bytes on disk. Only changes queue behind a human or a check.
    asio::awaitable<Guard> acquire_for_read(std::string key);

    // The holder of `key`'s lane starts (true) or stops (false) letting reads pass: while it waits
    // for a human, or once its write is committed and only its checks remain. Handing the lane
    // over ends it too.
    void let_reads_pass(const std::string& key, bool pass);

    std::size_t lanes() const { return lanes_.size(); }

private:
    struct Waiter {
        asio::steady_timer wakeup;
        bool reader = false;
        bool granted = false;  // woken with the lane (else: a reader let go without it)
        explicit Waiter(const asio::any_io_executor& executor)
            : wakeup(executor, asio::steady_timer::time_point::max()) {}
    };
    struct Lane {
        bool held = false;
        bool reads_pass = false;
        std::deque<std::shared_ptr<Waiter>> waiters;
    };
    asio::awaitable<Guard> wait_in_line(std::string key, bool reader);
    void release(const std::string& key);

    asio::any_io_executor executor_;
    std::unordered_map<std::string, Lane> lanes_;
};

}  // namespace ledger
