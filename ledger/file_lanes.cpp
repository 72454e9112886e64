// FileLanes: FIFO hand-over of each lane; waiters sleep on a timer that the releaser cancels (or,
// for a read, that a holder starting to let reads pass cancels).
#include "ledger/file_lanes.hpp"

#include <algorithm>

#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>

namespace ledger {

void FileLanes::Guard::release() {
    if (!lanes_) return;
    lanes_->release(key_);
    lanes_ = nullptr;
}

asio::awaitable<std::vector<FileLanes::Guard>> FileLanes::acquire_all(std::vector<std::string> keys) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<Guard> guards;
    guards.reserve(keys.size());
    for (auto& key : keys) guards.push_back(co_await acquire(std::move(key)));
    co_return guards;
}

asio::awaitable<FileLanes::Guard> FileLanes::acquire(std::string key) {
    Lane& lane = lanes_[key];
    if (!lane.held) {
        lane.held = true;
        co_return Guard(this, std::move(key));
    }
    co_return co_await wait_in_line(std::move(key), false);
}

asio::awaitable<FileLanes::Guard> FileLanes::acquire_for_read(std::string key) {
    Lane& lane = lanes_[key];
    if (!lane.held) {
        lane.held = true;
        co_return Guard(this, std::move(key));
    }
    if (lane.reads_pass) co_return Guard();
    co_return co_await wait_in_line(std::move(key), true);
}

asio::awaitable<FileLanes::Guard> FileLanes::wait_in_line(std::string key, bool reader) {
    auto waiter = std::make_shared<Waiter>(executor_);
    waiter->reader = reader;
    lanes_[key].waiters.push_back(waiter);
    asio::error_code ignored;
    // The releaser hands the lane over (it stays held) and cancels this timer; a reader may also
    // be let go without it (let_reads_pass).
    co_await waiter->wakeup.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    if (!waiter->granted) co_return Guard();
    co_return Guard(this, std::move(key), true);
}

void FileLanes::let_reads_pass(const std::string& key, bool pass) {
    const auto it = lanes_.find(key);
    if (it == lanes_.end() || !it->second.held) return;
    Lane& lane = it->second;
    lane.reads_pass = pass;
    if (!pass) return;
    // Reads in line go now, on what is on disk; changes keep their places.
    auto& waiters = lane.waiters;
    for (auto w = waiters.begin(); w != waiters.end();) {
        if (!(*w)->reader) {
            ++w;
            continue;
        }
        (*w)->wakeup.cancel();
        w = waiters.erase(w);
    }
}

void FileLanes::release(const std::string& key) {
    const auto it = lanes_.find(key);
    if (it == lanes_.end()) return;
    Lane& lane = it->second;
    lane.reads_pass = false;
    if (lane.waiters.empty()) {
        lanes_.erase(it);
        return;
    }
    auto next = std::move(lane.waiters.front());
    lane.waiters.pop_front();
    next->granted = true;
    next->wakeup.cancel();  // stays held: ownership passes to the woken waiter
}

}  // namespace ledger
