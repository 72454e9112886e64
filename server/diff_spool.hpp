// The full diff of a change awaiting approval, kept in a file the human can open. Hosts show only
// a few lines of a form (Claude Code three or four, Codex one screen), so for a large change the
// form names this file instead of showing a cut diff as if it were all. Private to this user
// (0700 directory, 0600 files), bounded to the newest few, removed when the server exits.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace server {

class DiffSpool {
public:
    explicit DiffSpool(std::size_t max_files = 32) : max_files_(max_files) {}
    ~DiffSpool();
    DiffSpool(const DiffSpool&) = delete;
    DiffSpool& operator=(const DiffSpool&) = delete;

    // Writes `diff` to a new file and returns its path, kept short so that a form shows it whole
    // (`/tmp/mcp-edit-XXXXXX/3.diff`); nullopt when no private directory or file can be made.
    // The oldest file goes once more than `max_files` are kept.
    std::optional<std::string> keep(std::string_view diff);

private:
    std::mutex mutex_;
    std::size_t max_files_;
    std::optional<std::string> dir_;
    bool dir_failed_ = false;
    std::size_t next_ = 1;
    std::deque<std::string> files_;
};

}  // namespace server
