// The operating-system surface in one place: path resolution, file kinds and identity, reading a
// regular file without ever blocking on a FIFO or device. POSIX (Linux) now; a port to macOS or
// Windows changes this file's implementation only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platform {

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
};

// errno-style failure text for messages ("Permission denied").
std::string error_text(int err);

// realpath(3): the absolute path with every symlink, `.` and `..` resolved; nullopt (with errno
// in *err) when it does not exist or cannot be resolved.
std::optional<std::string> real_path(const std::string& path, int* err = nullptr);

// stat(2) following symlinks.
FileStat stat_path(const std::string& path);

// lstat(2): is `path` itself a symbolic link (dangling or not)?
bool is_symlink(const std::string& path);

const char* describe(FileKind kind);  // "a directory", "a FIFO", ...

struct ReadFile {
    std::string bytes;
    FileStat stat;
};

struct ReadFailure {
    enum class Why { not_found, not_regular, too_large, io } why = Why::io;
    FileKind kind = FileKind::missing;
    std::uint64_t size = 0;
    std::string detail;
};

// Reads a whole regular file. Opens with O_NONBLOCK so a FIFO or device never blocks, then
// refuses anything that is not a regular file, and files larger than `max_size`.
bool read_regular_file(const std::string& path, std::uint64_t max_size, ReadFile& out,
                       ReadFailure& failure);

std::string current_directory();

}  // namespace platform
