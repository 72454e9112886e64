// Whole-file reads for a search over many files (grep's workers): cheaper per file than
// read_regular_file, which a search would call tens of thousands of times.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "os/file_reads.hpp"

namespace os {

// One worker's reader. On POSIX the folder of the last file stays open, so the next file of the
// same folder is opened relative to it with one openat (the walk hands files over folder by
// folder), and the buffer is kept from file to file and never zero-filled. The checks are those
// of read_regular_file: only a regular file, at most max_size bytes, opened non-blocking, and under
// a held root no symlink followed (the folder is reached as open_directory reaches it).
class SearchReader {
public:
    SearchReader();
    ~SearchReader();
    SearchReader(const SearchReader&) = delete;
    SearchReader& operator=(const SearchReader&) = delete;

    // Reads the file at the absolute real path `real` whole; the bytes stay valid until the next
    // call. Fails with the ReadFailure read_regular_file would give. `skip_linked`: a file with
    // other names (hard links, one of which may be an ignored file's) is not read at all: the
    // result is empty and linked() is true (what `read` refuses under --ignore-reads).
    base::Result<std::string_view, ReadFailure> read(const std::string& real, std::uint64_t max_size,
                                                     bool skip_linked = false);

    // Whether the last file read was left unread by skip_linked.
    bool linked() const { return linked_; }

    // Whether the last file read holds a NUL byte, a CR: found piece by piece as it is read, while
    // each piece is still in the CPU's cache (a second pass over a big file would come from memory).
    bool has_nul() const { return nul_; }
    bool has_cr() const { return cr_; }

    // Frees the buffer when it grew past `keep` bytes (a big file does not pin its size).
    void release_above(std::size_t keep);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    bool nul_ = false, cr_ = false, linked_ = false;
};

}  // namespace os
