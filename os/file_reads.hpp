// Reading a regular file whole without ever blocking on a FIFO or device, and refusing what is not
// a regular file or is too large. POSIX in file_reads_posix.cpp, Windows in file_reads_windows.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/result.hpp"
#include "os/file_status.hpp"

namespace os {

struct ReadFile {
    std::string bytes;
    FileStat stat;
    // With keep_open: the file's descriptor, closed when the last copy of this goes. Holding it
    // across a replace defers freeing the old file's blocks (work in rename) until it is closed.
    std::shared_ptr<const void> open_file;
};

struct ReadFailure {
    enum class Why { not_found, not_regular, too_large, io } why = Why::io;
    FileKind kind = FileKind::missing;
    std::uint64_t size = 0;
    std::string detail;

    // The failures a reader returns: an I/O error or missing file, something not a regular file,
    // a file over the limit (shared by read_regular_file and the search reader).
    static base::Unexpected<ReadFailure> failed(Why why, std::string detail) {
        return base::fail(ReadFailure{why, FileKind::missing, 0, std::move(detail)});
    }
    static base::Unexpected<ReadFailure> not_regular_file(FileKind kind) {
        return base::fail(ReadFailure{Why::not_regular, kind, 0, {}});
    }
    static base::Unexpected<ReadFailure> over_limit(std::uint64_t size) {
        return base::fail(ReadFailure{Why::too_large, FileKind::missing, size, {}});
    }
};

// Reads a whole regular file. Opens with O_NONBLOCK so a FIFO or device never blocks, then
// refuses anything that is not a regular file, and files larger than `max_size`. Under a held
// root no symlink is followed, the last component included. The failure says which refusal (or
// I/O error) it was; nothing of a refused file is returned. With `at_most`, only the file's first
// `at_most` bytes are read (what it is, by its magic bytes, without the cost of reading it all) and
// stat.size stays the whole file's size.
base::Result<ReadFile, ReadFailure> read_regular_file(const std::string& path, std::uint64_t max_size,
                                                      bool keep_open = false,
                                                      std::size_t at_most = static_cast<std::size_t>(-1));

}  // namespace os
