// What this session knows of each file it read or wrote: the content hash at that moment, and
// for small files the bytes too (the base `write` merges from when the file changed since).
// `write` over an existing file relies on it; bounded, oldest forgotten first.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "ledger/fingerprint.hpp"

namespace ledger {

class FileStates {
public:
    explicit FileStates(std::size_t capacity = 65536) : capacity_(capacity) {}

    void record(const std::string& real_path, const Fingerprint& content);
    std::optional<Fingerprint> known_hash(const std::string& real_path) const;
    void forget(const std::string& real_path);

    static constexpr std::size_t max_seen_file = 1u << 20;    // larger files: hash only
    static constexpr std::size_t max_seen_total = 64u << 20;  // all kept bytes; oldest dropped first
    // Records `content` like record() and keeps `bytes` (its bytes) when small enough.
    void record_with_bytes(const std::string& real_path, const Fingerprint& content, std::string bytes) {
        record_with_bytes(real_path, content, std::make_shared<const std::string>(std::move(bytes)));
    }
    void record_with_bytes(const std::string& real_path, const Fingerprint& content,
                           std::shared_ptr<const std::string> bytes);
    // The bytes of `real_path` as this session last saw them, when kept and still what the
    // recorded hash says; nullptr otherwise.
    std::shared_ptr<const std::string> seen_bytes(const std::string& real_path) const;

    // The encoding the model named for a file (read's `encoding`), used whenever the file's bytes
    // fit it until another is named; "" when none. At most max_encodings files, oldest forgotten.
    static constexpr std::size_t max_encodings = 4096;
    void set_encoding(const std::string& real_path, std::string encoding);
    std::string encoding(const std::string& real_path) const;

private:
    struct Seen {
        Fingerprint content;
        std::shared_ptr<const std::string> bytes;
    };
    std::unordered_map<std::string, std::string> encodings_;
    std::deque<std::string> encodings_order_;
    std::unordered_map<std::string, Seen> seen_;
    std::deque<std::string> seen_order_;
    std::size_t seen_total_ = 0;

    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::unordered_map<std::string, Fingerprint> hashes_;
    std::deque<std::string> order_;  // insertion order, for eviction
};

}  // namespace ledger
