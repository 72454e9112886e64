// What this session's server wrote, per file, newest last: the bytes before and after each change,
// so `undo` can walk back. Bounded by total bytes (oldest evicted first, and remembered as
// evicted so undo can say so); shared between the io thread and the blocking pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tools {

class History {
public:
    struct Entry {
        std::uint64_t seq = 0;
        std::string tool;
        bool existed = true;  // false: the change created the file
        std::string before;   // bytes before the change (empty when created)
        std::string after;    // bytes the server wrote
        std::string after_hash;
        std::size_t cost() const { return before.size() + after.size() + 256; }
    };

    explicit History(std::size_t max_bytes = 256u << 20, std::size_t max_entries = 10000)
        : max_bytes_(max_bytes), max_entries_(max_entries) {}

    void record(std::string tool, const std::string& real_path, bool existed, std::string before, std::string after,
                std::string after_hash);
    std::shared_ptr<const Entry> latest(const std::string& real_path) const;
    // Drops the latest entry of `real_path` when it is still `seq` (after a successful undo).
    void pop(const std::string& real_path, std::uint64_t seq);
    // How many of this file's changes were dropped to stay within the cap.
    std::size_t evicted(const std::string& real_path) const;

private:
    void evict_locked();

    mutable std::mutex mutex_;
    std::size_t max_bytes_;
    std::size_t max_entries_;
    std::size_t bytes_ = 0;
    std::size_t entries_ = 0;
    std::uint64_t next_seq_ = 1;
    std::unordered_map<std::string, std::vector<std::shared_ptr<const Entry>>> by_path_;
    std::deque<std::pair<std::string, std::uint64_t>> order_;  // oldest first
    std::unordered_map<std::string, std::size_t> evicted_;
};

}  // namespace tools
