// SessionChanges: the list of changed files and their bases, under one mutex.
#include "ledger/session_changes.hpp"

#include <algorithm>

#include "text/bytes/byte_scan.hpp"

namespace ledger {

bool SessionChanges::note_change(const std::string& real_path, bool existed) {
    bool added = false;
    Listener listener;
    {
        std::lock_guard lock(mutex_);
        auto found = files_.find(real_path);
        if (found == files_.end()) {
            if (files_.size() >= max_files) return false;  // listed files are bounded; the rest go unlisted
            File file;
            file.real_path = real_path;
            file.order = next_order_++;
            file.existed = existed;
            found = files_.emplace(real_path, std::move(file)).first;
            added = true;
        }
        ++found->second.changes;
        listener = listener_;
    }
    if (listener) listener(real_path, added);
    return added;
}

bool SessionChanges::keep_base(const std::string& real_path, std::string_view before) {
    std::lock_guard lock(mutex_);
    const auto found = files_.find(real_path);
    if (found == files_.end() || !found->second.base_pending) return false;
    File& file = found->second;
    file.base_pending = false;
    if (!file.existed) return true;
    if (base_bytes_ + before.size() > max_base_bytes_) {
        file.base_kept = false;
        return false;
    }
    base_bytes_ += before.size();
    file.base = std::make_shared<const std::string>(before);
    return true;
}

std::size_t SessionChanges::BaseDelta::cost() const {
    std::size_t bytes = 64;
    for (const auto& span : spans) bytes += span.base.size() + 64;
    return bytes;
}

std::optional<std::string> SessionChanges::File::base_given(const std::string* now) const {
    if (base) return *base;
    if (!delta) return std::nullopt;
    const BaseDelta& d = *delta;
    const bool whole = d.spans.size() == 1 && d.spans[0].at == 0 && d.spans[0].length == d.written_size;
    // Unless one span replaces all it wrote, the file must still be what the server wrote.
    if (!whole && (!now || !d.written || now->size() != d.written_size || Fingerprint::of(*now) != *d.written))
        return std::nullopt;
    if (whole) return d.spans[0].base;
    std::string out;
    std::size_t cursor = 0;
    for (const auto& span : d.spans) {
        out.append(*now, cursor, span.at - cursor);
        out += span.base;
        cursor = span.at + span.length;
    }
    out.append(*now, cursor, std::string::npos);
    return out;
}

void SessionChanges::changed(const std::string& real_path, std::string_view before,
                             const std::optional<text::ByteParts>& after, const std::optional<Fingerprint>& written) {
    std::lock_guard lock(mutex_);
    const auto found = files_.find(real_path);
    if (found == files_.end()) return;
    File& file = found->second;
    const text::ByteParts wrote = after.value_or(text::ByteParts());
    if (file.base_pending) {  // the first change: its before-image is the base
        file.base_pending = false;
        if (!file.existed) return;
        if (before.size() <= max_whole_base) {
            if (base_bytes_ + before.size() > max_base_bytes_) {
                file.base_kept = false;
                return;
            }
            base_bytes_ += before.size();
            file.base = std::make_shared<const std::string>(before);
            return;
        }
        // Seen as a change from a base that equals `before` everywhere: no spans yet.
        auto empty = std::make_shared<BaseDelta>();
        empty->written_size = before.size();
        file.delta = std::move(empty);
        base_bytes_ += file.delta->cost();
    } else if (!file.delta) {
        return;  // a whole base (or none) does not follow later changes
    } else {
        // This change must start from what the server last wrote, else the spans no longer apply.
        const BaseDelta& old = *file.delta;
        const bool whole = old.spans.size() == 1 && old.spans[0].at == 0 && old.spans[0].length == old.written_size;
        const bool from_written =
            before.size() == old.written_size && (whole || (old.written && Fingerprint::of(before) == *old.written));
        if (!from_written) {
            base_bytes_ -= old.cost();
            file.delta.reset();
            file.base_kept = false;
            return;
        }
    }
    const BaseDelta& old = *file.delta;
    // The region this change replaced: [p, end_a) of `before`, now [p, end_a + growth) of `wrote`.
    const std::size_t common = std::min(before.size(), wrote.size());
    std::size_t p = text::common_prefix(before, wrote);
    std::size_t s = text::common_suffix(before, wrote, common - p);
    if (!after) p = s = 0;
    const std::size_t end_a = before.size() - s;
    const auto growth = static_cast<std::ptrdiff_t>(wrote.size()) - static_cast<std::ptrdiff_t>(before.size());
    auto d = std::make_shared<BaseDelta>();
    d->written_size = wrote.size();
    d->written = after ? written : std::nullopt;
    std::size_t k = 0;
    for (; k < old.spans.size() && old.spans[k].at + old.spans[k].length < p; ++k) d->spans.push_back(old.spans[k]);
    // Spans that touch the region merge with it into one.
    BaseDelta::Span merged;
    merged.at = p;
    std::size_t end = end_a;
    std::size_t first = k;
    for (; k < old.spans.size() && old.spans[k].at <= end_a; ++k) {
        merged.at = std::min(merged.at, old.spans[k].at);
        end = std::max(end, old.spans[k].at + old.spans[k].length);
    }
    std::size_t cursor = merged.at;
    for (std::size_t j = first; j < k; ++j) {
        merged.base.append(before.substr(cursor, old.spans[j].at - cursor));
        merged.base += old.spans[j].base;
        cursor = old.spans[j].at + old.spans[j].length;
    }
    merged.base.append(before.substr(cursor, end - cursor));
    merged.length = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(end - merged.at) + growth);
    if (merged.length != 0 || !merged.base.empty()) d->spans.push_back(std::move(merged));
    for (; k < old.spans.size(); ++k) {
        BaseDelta::Span moved = old.spans[k];
        moved.at = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(moved.at) + growth);
        d->spans.push_back(std::move(moved));
    }
    base_bytes_ -= old.cost();
    if (base_bytes_ + d->cost() > max_base_bytes_) {
        file.delta.reset();
        file.base_kept = false;
        return;
    }
    base_bytes_ += d->cost();
    file.delta = std::move(d);
}

std::vector<SessionChanges::File> SessionChanges::files() const {
    std::vector<File> out;
    {
        std::lock_guard lock(mutex_);
        out.reserve(files_.size());
        for (const auto& [path, file] : files_) out.push_back(file);
    }
    std::sort(out.begin(), out.end(), [](const File& a, const File& b) { return a.order < b.order; });
    return out;
}

std::optional<SessionChanges::File> SessionChanges::find(const std::string& real_path) const {
    std::lock_guard lock(mutex_);
    const auto found = files_.find(real_path);
    if (found == files_.end()) return std::nullopt;
    return found->second;
}

std::size_t SessionChanges::size() const {
    std::lock_guard lock(mutex_);
    return files_.size();
}

void SessionChanges::set_listener(Listener listener) {
    std::lock_guard lock(mutex_);
    listener_ = std::move(listener);
}

void SessionChanges::restore(File file) {
    std::lock_guard lock(mutex_);
    if (files_.size() >= max_files || files_.count(file.real_path)) return;
    file.order = next_order_++;
    file.base_pending = false;
    if (file.base) {
        if (base_bytes_ + file.base->size() > max_base_bytes_) {
            file.base.reset();
            file.base_kept = false;
        } else {
            base_bytes_ += file.base->size();
        }
    }
    files_.emplace(file.real_path, std::move(file));
}

}  // namespace ledger
