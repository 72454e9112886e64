// FileStates: a bounded, thread-safe table of path -> content hash.
#include "tools/file_states.hpp"

namespace tools {

void FileStates::record(const std::string& real_path, const Fingerprint& content) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = hashes_.insert_or_assign(real_path, content);
    if (!inserted) return;
    order_.push_back(real_path);
    while (hashes_.size() > capacity_ && !order_.empty()) {
        hashes_.erase(order_.front());
        order_.pop_front();
    }
    // Keep the order list from growing past the table through forget/re-record cycles.
    if (order_.size() > 2 * capacity_) {
        std::deque<std::string> kept;
        for (auto& p : order_)
            if (hashes_.count(p)) kept.push_back(std::move(p));
        order_.swap(kept);
    }
}

std::optional<Fingerprint> FileStates::known_hash(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = hashes_.find(real_path);
    if (it == hashes_.end()) return std::nullopt;
    return it->second;
}

void FileStates::forget(const std::string& real_path) {
    std::lock_guard lock(mutex_);
    hashes_.erase(real_path);
}

}  // namespace tools
