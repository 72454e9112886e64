// History: per-file stacks of changes with a global byte cap, oldest evicted first.
#include "tools/history.hpp"

namespace tools {

void History::record(std::string tool, const std::string& real_path, bool existed, std::string before,
                     std::string after, std::string after_hash) {
    auto entry = std::make_shared<Entry>();
    entry->tool = std::move(tool);
    entry->existed = existed;
    entry->before = std::move(before);
    entry->after = std::move(after);
    entry->after_hash = std::move(after_hash);
    std::lock_guard lock(mutex_);
    entry->seq = next_seq_++;
    if (entry->cost() > max_bytes_) {
        // Too large to keep: earlier steps cannot be undone past this one either.
        bytes_ -= [&] {
            std::size_t freed = 0;
            for (const auto& e : by_path_[real_path]) freed += e->cost();
            return freed;
        }();
        entries_ -= by_path_[real_path].size();
        evicted_[real_path] += by_path_[real_path].size() + 1;
        by_path_.erase(real_path);
        return;
    }
    bytes_ += entry->cost();
    ++entries_;
    order_.emplace_back(real_path, entry->seq);
    by_path_[real_path].push_back(std::move(entry));
    evict_locked();
}

void History::evict_locked() {
    while ((bytes_ > max_bytes_ || entries_ > max_entries_) && !order_.empty()) {
        auto [path, seq] = order_.front();
        order_.pop_front();
        auto it = by_path_.find(path);
        if (it == by_path_.end()) continue;
        auto& stack = it->second;
        // The oldest entry of that file, if it is the one in the order list (else it was popped).
        if (!stack.empty() && stack.front()->seq == seq) {
            bytes_ -= stack.front()->cost();
            --entries_;
            stack.erase(stack.begin());
            ++evicted_[path];
            if (stack.empty()) by_path_.erase(it);
        }
    }
    if (order_.size() > 4 * max_entries_) {
        std::deque<std::pair<std::string, std::uint64_t>> kept;
        for (auto& o : order_) {
            const auto it = by_path_.find(o.first);
            if (it == by_path_.end()) continue;
            for (const auto& e : it->second)
                if (e->seq == o.second) {
                    kept.push_back(o);
                    break;
                }
        }
        order_.swap(kept);
    }
}

std::shared_ptr<const History::Entry> History::latest(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = by_path_.find(real_path);
    if (it == by_path_.end() || it->second.empty()) return nullptr;
    return it->second.back();
}

void History::pop(const std::string& real_path, std::uint64_t seq) {
    std::lock_guard lock(mutex_);
    const auto it = by_path_.find(real_path);
    if (it == by_path_.end() || it->second.empty() || it->second.back()->seq != seq) return;
    bytes_ -= it->second.back()->cost();
    --entries_;
    it->second.pop_back();
    if (it->second.empty()) by_path_.erase(it);
}

std::size_t History::evicted(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = evicted_.find(real_path);
    return it == evicted_.end() ? 0 : it->second;
}

}  // namespace tools
