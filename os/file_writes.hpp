// Writing files safely. A replacement is staged in a temp file beside the target (O_EXCL, written,
// fsynced, mode and owner copied), then renamed over the target and the directory fsynced: a crash
// leaves the old or the new file, never a mix. Several staged files can be committed together
// (apply_diff). Also: a file with several links overwritten in place, folders made and removed,
// files removed. POSIX in file_writes_posix.cpp, Windows in file_writes_windows.cpp.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "os/file_status.hpp"

namespace os {

struct StagedWrite {
    std::string temp_path;
    std::string target;
    // POSIX: the folder the temp file was made in and the temp file itself (locked, so that a
    // later server can tell a live server's temp file from one a killed server left behind).
    std::shared_ptr<void> held;
};

// `like`: the existing file whose mode and owner the new one takes; nullptr for a new file
// (mode 0666 less the umask). Failures (io_error) are lower-case phrases a caller quotes
// ("cannot create a temp file in /d: Permission denied").
// The new bytes come as consecutive parts (an edit of a big file: the bytes before, the new text,
// the bytes after), written one after the other.
base::Result<StagedWrite> stage_write(const std::string& target, std::span<const std::string_view> parts,
                                      const FileStat* like, bool sync);
inline base::Result<StagedWrite> stage_write(const std::string& target, std::string_view bytes, const FileStat* like,
                                             bool sync) {
    return stage_write(target, std::span<const std::string_view>(&bytes, 1), like, sync);
}
base::Result<void> commit_staged(const StagedWrite& staged, bool sync);
void discard_staged(const StagedWrite& staged);

// For a file with several hard links, which a rename would split: the bytes are written over the
// file itself (a durable copy of the old bytes is kept beside it until the write is synced).
base::Result<void> overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes,
                                      bool sync);

// Creates the missing directories of `dir` (like mkdir -p) and syncs their parents. Fails with
// not_a_file when `dir` (or a folder on the way) exists as something else.
base::Result<void> make_directories(const std::string& dir, bool sync);

base::Result<void> remove_file(const std::string& path, bool sync);
// Removes the folder `path` when it is empty (rmdir: a folder with anything in it stays, and
// the failure says it is not empty), reached like a write; then syncs its parent.
base::Result<void> remove_empty_directory(const std::string& path, bool sync);

}  // namespace os
