// DiffSpool: a lazily made private directory holding the newest approval diffs.
#include "server/diff_spool.hpp"

#include "base/log.hpp"
#include "os/file_writes.hpp"
#include "os/scratch_files.hpp"

namespace server {

DiffSpool::~DiffSpool() {
    // Best effort: a file that cannot be removed stays in the private temp folder.
    for (const auto& f : files_) (void)os::remove_file(f, false);
    if (dir_) os::remove_directory(*dir_);
}

std::optional<std::string> DiffSpool::keep(std::string_view diff) {
    std::lock_guard lock(mutex_);
    if (!dir_ && !dir_failed_) {
        dir_ = os::make_private_directory("mcp-edit-");
        if (!dir_) {
            dir_failed_ = true;
            base::log::warn("cannot make a private temp directory for approval diffs; forms will show a cut diff only");
        }
    }
    if (!dir_) return std::nullopt;
    std::string path = *dir_ + "/" + std::to_string(next_++) + ".diff";
    if (!os::write_private_file(path, diff)) return std::nullopt;
    files_.push_back(path);
    while (files_.size() > max_files_) {
        (void)os::remove_file(files_.front(), false);
        files_.pop_front();
    }
    return path;
}

}  // namespace server
