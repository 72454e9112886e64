// What this session knows of each file it read or wrote: the content hash at that moment.
// `write` over an existing file relies on it; bounded, oldest forgotten first.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tools {

class FileStates {
public:
    explicit FileStates(std::size_t capacity = 65536) : capacity_(capacity) {}

    void record(const std::string& real_path, const std::string& sha256);
    std::optional<std::string> known_hash(const std::string& real_path) const;
    void forget(const std::string& real_path);

private:
    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::unordered_map<std::string, std::string> hashes_;
    std::deque<std::string> order_;  // insertion order, for eviction
};

}  // namespace tools
