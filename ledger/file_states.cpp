// FileStates: a bounded, thread-safe table of path -> content hash.
#include "ledger/file_states.hpp"

namespace ledger {

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
    if (const auto it = seen_.find(real_path); it != seen_.end()) {
        seen_total_ -= it->second.bytes->size();
        seen_.erase(it);
    }
}

void FileStates::record_with_bytes(const std::string& real_path, const Fingerprint& content,
                                   std::shared_ptr<const std::string> bytes) {
    record(real_path, content);
    std::lock_guard lock(mutex_);
    if (const auto it = seen_.find(real_path); it != seen_.end()) {
        seen_total_ -= it->second.bytes->size();
        seen_.erase(it);
    }
    if (!bytes || bytes->size() > max_seen_file) return;
    seen_total_ += bytes->size();
    seen_.emplace(real_path, Seen{content, std::move(bytes)});
    seen_order_.push_back(real_path);
    while ((seen_total_ > max_seen_total || seen_.size() > capacity_) && !seen_order_.empty()) {
        const auto oldest = seen_.find(seen_order_.front());
        seen_order_.pop_front();
        if (oldest == seen_.end()) continue;
        seen_total_ -= oldest->second.bytes->size();
        seen_.erase(oldest);
    }
    if (seen_order_.size() > 2 * capacity_) {  // re-recorded paths leave stale entries behind
        std::deque<std::string> kept;
        for (auto& p : seen_order_)
            if (seen_.count(p)) kept.push_back(std::move(p));
        seen_order_.swap(kept);
    }
}

std::shared_ptr<const std::string> FileStates::seen_bytes(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = seen_.find(real_path);
    const auto known = hashes_.find(real_path);
    if (it == seen_.end() || known == hashes_.end() || !(known->second == it->second.content)) return nullptr;
    return it->second.bytes;
}

void FileStates::set_encoding(const std::string& real_path, std::string encoding) {
    std::lock_guard lock(mutex_);
    const auto [it, added] = encodings_.insert_or_assign(real_path, std::move(encoding));
    if (!added) return;
    encodings_order_.push_back(real_path);
    while (encodings_order_.size() > max_encodings) {
        encodings_.erase(encodings_order_.front());
        encodings_order_.pop_front();
    }
}

std::string FileStates::encoding(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = encodings_.find(real_path);
    return it == encodings_.end() ? std::string() : it->second;
}

}  // namespace ledger
