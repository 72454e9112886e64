// SessionChanges: the list of changed files and their bases, under one mutex.
#include "tools/session_changes.hpp"

#include <algorithm>

namespace tools {

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

}  // namespace tools
