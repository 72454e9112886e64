// What this session's server wrote, per file, newest last: the bytes before and after each change,
// so `undo` can walk back. Bounded by total bytes (oldest evicted first, and remembered as
// evicted so undo can say so); shared between the io thread and the blocking pool.
// Stored as deltas: each change keeps only the bytes it replaced (its before-image as a delta on
// its after-image) and a fingerprint of what it wrote; the after-image itself only for small files
// (for big ones undo rebuilds the before-image from the file on disk, once its fingerprint matches).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ledger/fingerprint.hpp"
#include "text/bytes/spliced_bytes.hpp"

namespace ledger {

class History {
public:
    struct Entry {
        std::uint64_t seq = 0;
        std::string tool;
        bool existed = true;  // false: the change created the file
        // Bytes before the change (empty when created). Filled only when `after_kept`; otherwise
        // before_from(the bytes on disk, once their fingerprint is after_fingerprint) rebuilds it.
        std::string before;
        std::string after;                             // bytes the server wrote, when `after_kept`
        bool after_kept = true;                        // false: a big file, whose after-image is only on disk
        std::optional<Fingerprint> after_fingerprint;  // of what it wrote; none when the change deleted the file
        // The delta: before = after[0, prefix) + middle + after[after_size - suffix, after_size).
        std::size_t after_size = 0;
        std::size_t prefix = 0;
        std::size_t suffix = 0;
        std::string middle;
        std::uint32_t mode = 0;  // the file's permission bits before the change (0: not known)
        // A move's other file: for the destination, the path it came from; for the source, where it
        // went. "" for every other change. Undo of either file moves it back.
        std::string partner;
        std::string before_from(std::string_view written) const;
    };

    // After-images up to this size are kept (for the diff undo shows when the file changed since).
    static constexpr std::size_t max_kept_after = 1u << 20;
    static constexpr std::size_t default_max_bytes = 64u << 20;

    explicit History(std::size_t max_bytes = default_max_bytes, std::size_t max_entries = 10000)
        : max_bytes_(max_bytes), max_entries_(max_entries) {}

    // A change of `real_path`: its bytes before and after (given as parts: an edit of a big file).
    // `after_joined`, when given, is the after-image already in one string (the caller keeps it
    // too): a kept after-image shares it instead of joining the parts again.
    void record(std::string tool, const std::string& real_path, bool existed, std::string_view before,
                const text::ByteParts& after, std::optional<Fingerprint> after_fingerprint, std::uint32_t mode = 0,
                std::string partner = {}, std::shared_ptr<const std::string> after_joined = nullptr);
    void record(std::string tool, const std::string& real_path, bool existed, std::string_view before,
                std::string_view after, std::optional<Fingerprint> after_fingerprint, std::uint32_t mode = 0,
                std::string partner = {}) {
        record(std::move(tool), real_path, existed, before, text::ByteParts(after), std::move(after_fingerprint), mode,
               std::move(partner));
    }
    // The newest change of `real_path` (its images rebuilt), or nullptr.
    std::shared_ptr<const Entry> latest(const std::string& real_path) const;
    // Drops the latest entry of `real_path` when it is still `seq` (after a successful undo).
    void pop(const std::string& real_path, std::uint64_t seq);
    // How many changes of `real_path` are kept (what undo can still walk back).
    std::size_t depth(const std::string& real_path) const;
    // How many of this file's changes were dropped to stay within the cap.
    std::size_t evicted(const std::string& real_path) const;

    // Every kept change with its images rebuilt, oldest first (what --history-dir writes back).
    // `read_current` gives a file's bytes now (nullopt when unreadable): a big file's newest
    // after-image is only there; a change whose images cannot be rebuilt is left out, with the
    // file's older ones.
    struct Exported {
        std::string real_path;
        Entry entry;
    };
    using Reader = std::function<std::optional<std::string>(const std::string& real_path)>;
    std::vector<Exported> export_all(const Reader& read_current) const;

private:
    // One change as stored: before = after[0, prefix) + middle + after[after_size - suffix, ...).
    struct Record {
        std::uint64_t seq = 0;
        std::string tool;
        bool existed = true;
        std::optional<Fingerprint> after_fingerprint;
        std::size_t before_size = 0;
        std::size_t after_size = 0;
        std::size_t prefix = 0;
        std::size_t suffix = 0;
        std::string middle;
        // The bytes written, when `after_kept` (shared with the file states' copy of what was
        // written); dropped when `linked`: the next record's before-image is the same bytes.
        std::shared_ptr<const std::string> after;
        bool after_kept = true;
        bool linked = false;
        std::uint32_t mode = 0;
        std::string partner;
        // The bytes this record holds: what the byte cap counts.
        std::size_t cost() const { return middle.size() + (after ? after->size() : 0) + 256; }
    };
    static std::string before_of(const Record& r, std::string_view after);
    void evict_locked();

    mutable std::mutex mutex_;
    std::size_t max_bytes_;
    std::size_t max_entries_;
    std::size_t bytes_ = 0;
    std::size_t entries_ = 0;
    std::uint64_t next_seq_ = 1;
    std::unordered_map<std::string, std::vector<Record>> by_path_;
    std::deque<std::pair<std::string, std::uint64_t>> order_;  // oldest first
    std::unordered_map<std::string, std::size_t> evicted_;
};

}  // namespace ledger
