// What a file is, as the system says: its kind (regular, folder, FIFO, ...), its identity (device
// and inode, or volume and file index on Windows), its size, mode and times; and whether this user
// may change it. POSIX in file_status_posix.cpp, Windows in file_status_windows.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.hpp"

namespace os {

enum class FileKind { missing, regular, directory, fifo, socket, char_device, block_device, other };

struct FileIdentity {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    bool operator==(const FileIdentity&) const = default;
};

struct FileStat {
    FileKind kind = FileKind::missing;
    FileIdentity identity;
    std::uint64_t size = 0;
    std::uint32_t mode = 0;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::uint64_t links = 1;
    std::int64_t mtime_ns = 0;
    std::int64_t ctime_ns = 0;

    // Same file, same size, untouched since: what a re-check before a write relies on first.
    bool same_version(const FileStat& o) const {
        return kind == o.kind && identity == o.identity && size == o.size && mtime_ns == o.mtime_ns &&
               ctime_ns == o.ctime_ns;
    }
};

// stat(2) following symlinks; under a held root no symlink is followed (a path through one is
// missing, a symlink at the end is FileKind::other).
FileStat stat_path(const std::string& path);

// Whether this user may change the file `path` whose stat is `st`: not when its permission bits
// allow nobody to write it (mode 0444, the Windows read-only attribute; root included, as editors
// treat it), nor when an access check for this user says no. The failure (not_writable) says why
// ("it is read-only (mode 0444)") for a message.
base::Result<void> may_write(const std::string& path, const FileStat& st);

// lstat(2): is `path` itself a symbolic link (dangling or not)?
bool is_symlink(const std::string& path);

const char* describe(FileKind kind);  // "a directory", "a FIFO", ...

}  // namespace os
