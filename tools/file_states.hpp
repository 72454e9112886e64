// What this session knows of each file it read or wrote: the content hash at that moment.
// `write` over an existing file relies on it; bounded, oldest forgotten first.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "tools/fingerprint.hpp"

namespace tools {

class FileStates {
public:
    explicit FileStates(std::size_t capacity = 65536) : capacity_(capacity) {}

    void record(const std::string& real_path, const Fingerprint& content);
    std::optional<Fingerprint> known_hash(const std::string& real_path) const;
    void forget(const std::string& real_path);

private:
    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::unordered_map<std::string, Fingerprint> hashes_;
    std::deque<std::string> order_;  // insertion order, for eviction
};

}  // namespace tools
