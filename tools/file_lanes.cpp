// FileLanes: FIFO hand-over of each lane; waiters sleep on a timer that the releaser cancels.
#include "tools/file_lanes.hpp"

#include <asio/redirect_error.hpp>
#include <asio/use_awaitable.hpp>

namespace tools {

void FileLanes::Guard::release() {
    if (!lanes_) return;
    lanes_->release(key_);
    lanes_ = nullptr;
}

asio::awaitable<FileLanes::Guard> FileLanes::acquire(std::string key) {
    Lane& lane = lanes_[key];
    if (!lane.held) {
        lane.held = true;
        co_return Guard(this, std::move(key));
    }
    auto wakeup = std::make_shared<asio::steady_timer>(executor_, asio::steady_timer::time_point::max());
    lane.waiters.push_back(wakeup);
    asio::error_code ignored;
    // The releaser hands the lane over (it stays held) and cancels this timer.
    co_await wakeup->async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    co_return Guard(this, std::move(key), true);
}

void FileLanes::release(const std::string& key) {
    const auto it = lanes_.find(key);
    if (it == lanes_.end()) return;
    Lane& lane = it->second;
    if (lane.waiters.empty()) {
        lanes_.erase(it);
        return;
    }
    auto next = std::move(lane.waiters.front());
    lane.waiters.pop_front();
    next->cancel();  // stays held: ownership passes to the woken waiter
}

}  // namespace tools
