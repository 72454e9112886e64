// History: per-file stacks of changes with a global byte cap, oldest evicted first. A change keeps
// the span of its before-image that differs from its after-image, and the after-image only for a
// small file (until the next change of the file starts from exactly those bytes).
#include "ledger/history.hpp"

#include <algorithm>

#include "text/bytes/byte_scan.hpp"

namespace ledger {

std::string History::before_of(const Record& r, std::string_view after) {
    std::string before;
    before.reserve(r.before_size);
    before.append(after.substr(0, r.prefix));
    before += r.middle;
    before.append(after.substr(after.size() - r.suffix));
    return before;
}

std::string History::Entry::before_from(std::string_view written) const {
    std::string out;
    out.reserve(prefix + middle.size() + suffix);
    out.append(written.substr(0, prefix));
    out += middle;
    out.append(written.substr(written.size() - suffix));
    return out;
}

void History::record(std::string tool, const std::string& real_path, bool existed, std::string_view before,
                     const text::ByteParts& after, std::optional<Fingerprint> after_fingerprint, std::uint32_t mode,
                     std::string partner, std::shared_ptr<const std::string> after_joined) {
    Record entry;
    entry.tool = std::move(tool);
    entry.mode = mode;
    entry.partner = std::move(partner);
    entry.existed = existed;
    entry.after_fingerprint = std::move(after_fingerprint);
    entry.before_size = before.size();
    entry.after_size = after.size();
    // The bytes both images share at the start and at the end (not overlapping).
    const std::size_t common = std::min(before.size(), after.size());
    entry.prefix = text::common_prefix(before, after);
    entry.suffix = text::common_suffix(before, after, common - entry.prefix);
    entry.middle.assign(before.substr(entry.prefix, before.size() - entry.prefix - entry.suffix));
    entry.after_kept = after.size() <= max_kept_after;
    if (entry.after_kept)
        entry.after = after_joined && after_joined->size() == after.size()
                          ? std::move(after_joined)
                          : std::make_shared<const std::string>(after.joined());

    std::lock_guard lock(mutex_);
    entry.seq = next_seq_++;
    if (entry.cost() > max_bytes_) {
        // Too large to keep: earlier steps cannot be undone past this one either.
        bytes_ -= [&] {
            std::size_t freed = 0;
            for (const auto& e : by_path_[real_path]) freed += e.cost();
            return freed;
        }();
        entries_ -= by_path_[real_path].size();
        evicted_[real_path] += by_path_[real_path].size() + 1;
        by_path_.erase(real_path);
        return;
    }
    bytes_ += entry.cost();
    ++entries_;
    order_.emplace_back(real_path, entry.seq);
    auto& stack = by_path_[real_path];
    // The previous change wrote what this one started from: its after-image is this before-image.
    if (!stack.empty() && stack.back().after_kept && !stack.back().linked && *stack.back().after == before) {
        bytes_ -= stack.back().after->size();
        stack.back().after.reset();
        stack.back().linked = true;
    }
    stack.push_back(std::move(entry));
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
        // Nothing depends on it: a linked record needs the newer one, never an older one.
        if (!stack.empty() && stack.front().seq == seq) {
            bytes_ -= stack.front().cost();
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
                if (e.seq == o.second) {
                    kept.push_back(o);
                    break;
                }
        }
        order_.swap(kept);
    }
}

std::size_t History::depth(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = by_path_.find(real_path);
    return it == by_path_.end() ? 0 : it->second.size();
}

std::shared_ptr<const History::Entry> History::latest(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = by_path_.find(real_path);
    if (it == by_path_.end() || it->second.empty()) return nullptr;
    const Record& r = it->second.back();  // the newest is never linked: its after-image is here when kept
    auto entry = std::make_shared<Entry>();
    entry->seq = r.seq;
    entry->tool = r.tool;
    entry->existed = r.existed;
    entry->mode = r.mode;
    entry->partner = r.partner;
    entry->after_kept = r.after_kept;
    if (r.after_kept) {
        entry->before = before_of(r, *r.after);
        entry->after = *r.after;
    }
    entry->after_fingerprint = r.after_fingerprint;
    entry->after_size = r.after_size;
    entry->prefix = r.prefix;
    entry->suffix = r.suffix;
    entry->middle = r.middle;
    return entry;
}

void History::pop(const std::string& real_path, std::uint64_t seq) {
    std::lock_guard lock(mutex_);
    const auto it = by_path_.find(real_path);
    if (it == by_path_.end() || it->second.empty() || it->second.back().seq != seq) return;
    auto& stack = it->second;
    bytes_ -= stack.back().cost();
    --entries_;
    // The change below becomes the newest: its after-image is the popped one's before-image
    // (rebuilt when the popped one kept its own; else the file on disk has it, as undo wrote it).
    if (stack.size() > 1 && stack[stack.size() - 2].linked) {
        Record& below = stack[stack.size() - 2];
        below.linked = false;
        if (stack.back().after_kept) {
            below.after = std::make_shared<const std::string>(before_of(stack.back(), *stack.back().after));
            bytes_ += below.after->size();
        } else {
            below.after_kept = false;
        }
    }
    stack.pop_back();
    if (stack.empty()) by_path_.erase(it);
}

std::vector<History::Exported> History::export_all(const Reader& read_current) const {
    // The newest after-images of big files are read before taking the lock (a read can be slow).
    std::unordered_map<std::string, std::string> on_disk;
    {
        std::vector<std::pair<std::string, std::optional<Fingerprint>>> wanted;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [path, stack] : by_path_)
                if (!stack.empty() && !stack.back().after_kept)
                    wanted.emplace_back(path, stack.back().after_fingerprint);
        }
        for (const auto& [path, fingerprint] : wanted) {
            auto bytes = read_current ? read_current(path) : std::nullopt;
            if (bytes && fingerprint && Fingerprint::of(*bytes) == *fingerprint)
                on_disk.emplace(path, std::move(*bytes));
        }
    }
    std::vector<Exported> out;
    std::lock_guard lock(mutex_);
    for (const auto& [path, stack] : by_path_) {
        // Newest first: a linked record's after-image is the next one's before-image.
        std::vector<Exported> images;
        std::optional<std::string> after;
        for (std::size_t k = stack.size(); k-- > 0;) {
            const Record& r = stack[k];
            if (r.after_kept && !r.linked) {
                after = *r.after;
            } else if (!r.linked && k + 1 == stack.size()) {  // a big file's newest after-image is on disk
                const auto found = on_disk.find(path);
                if (found == on_disk.end()) break;
                after = found->second;
            } else if (!r.linked) {  // an older one: the next change's before-image, if it started from it
                if (!after || !r.after_fingerprint || Fingerprint::of(*after) != *r.after_fingerprint) break;
            }
            if (!after || after->size() != r.after_size) break;
            Exported image;
            image.real_path = path;
            Entry& e = image.entry;
            e.seq = r.seq;
            e.tool = r.tool;
            e.existed = r.existed;
            e.before = before_of(r, *after);
            e.after = std::move(*after);
            e.after_fingerprint = r.after_fingerprint;
            e.mode = r.mode;
            e.partner = r.partner;
            after = e.before;
            images.push_back(std::move(image));
        }
        for (auto& image : images) out.push_back(std::move(image));
    }
    std::sort(out.begin(), out.end(), [](const Exported& a, const Exported& b) { return a.entry.seq < b.entry.seq; });
    return out;
}

std::size_t History::evicted(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto it = evicted_.find(real_path);
    return it == evicted_.end() ? 0 : it->second;
}

}  // namespace ledger
