// SearchReader on POSIX: the last file's folder kept open and each file opened relative to it,
// fstat, then reads of 256 KiB pieces into a kept buffer, each scanned for NUL and CR (see search_reader.hpp).
#include "os/search_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/confinement_posix.hpp"
#include "os/paths.hpp"
#include "os/error_text.hpp"

namespace os {

namespace {

// Read in pieces of this size, each looked at for NUL and CR while it is in the L2 cache.
constexpr std::size_t read_piece = 256 * 1024;

}  // namespace

struct SearchReader::Impl {
    std::string folder;  // the real path `dir` was opened for
    posix::Fd dir;
    bool held = false;  // `folder` is under a held root: no symlink is followed, the file's name included
    std::unique_ptr<char[]> buffer;
    std::size_t capacity = 0;

    // Makes room for `n` bytes, keeping the first `keep`.
    void reserve(std::size_t n, std::size_t keep) {
        if (n <= capacity) return;
        const std::size_t grown = std::max(n, capacity + capacity / 2);
        std::unique_ptr<char[]> bigger(new char[grown]);  // not zero-filled: only read bytes are looked at
        if (keep) std::copy(buffer.get(), buffer.get() + keep, bigger.get());
        buffer = std::move(bigger);
        capacity = grown;
    }
};

SearchReader::SearchReader() : impl_(std::make_unique<Impl>()) {}
SearchReader::~SearchReader() = default;

base::Result<std::string_view, ReadFailure> SearchReader::read(const std::string& real, std::uint64_t max_size,
                                                               bool skip_linked) {
    Impl& s = *impl_;
    linked_ = nul_ = cr_ = false;
    const std::string name(os::name_of(real));
    const std::string folder = os::parent_of(real);
    if (name.empty() || name == "." || name == "..")
        return ReadFailure::failed(ReadFailure::Why::io, "not a file name");
    if (!s.dir || folder != s.folder) {
        s.dir.reset();
        s.folder.clear();
        s.held = posix::under_held_root(folder);
        s.dir = posix::open_directory(folder);
        if (!s.dir) {
            const int e = errno;
            return ReadFailure::failed(e == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io,
                                       posix::walk_error(real, e));
        }
        s.folder = folder;
    }
    int fd;
    do
        fd = ::openat(s.dir.get(), name.c_str(),
                      O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (s.held ? O_NOFOLLOW : 0));
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        const int e = errno;
        return ReadFailure::failed(e == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io,
                                   posix::walk_error(real, e));
    }
    const posix::Fd file(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
    const FileKind kind = posix::kind_of_mode(st.st_mode);
    if (kind != FileKind::regular) return ReadFailure::not_regular_file(kind);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > max_size) return ReadFailure::over_limit(size);
    if (skip_linked && st.st_nlink > 1) {  // checked on the descriptor that would be read
        linked_ = true;
        return std::string_view();
    }
    // Room for one byte more than fstat said: a short read then ends the file in one call, and a
    // file that grew meanwhile fills the room and is read on, within max_size.
    s.reserve(static_cast<std::size_t>(size) + 1, 0);
    std::size_t have = 0;
    for (;;) {
        if (have == s.capacity) {
            if (have > max_size) return ReadFailure::over_limit(have);
            s.reserve(
                static_cast<std::size_t>(std::min<std::uint64_t>(max_size + 1, 2 * static_cast<std::uint64_t>(have))),
                have);
        }
        const std::size_t asked = std::min(read_piece, s.capacity - have);
        char* const piece = s.buffer.get() + have;
        const ssize_t n = ::read(fd, piece, asked);
        if (n < 0) {
            if (errno == EINTR) continue;
            return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
        }
        if (n == 0) break;
        const auto got = static_cast<std::size_t>(n);
        nul_ = nul_ || std::memchr(piece, '\0', got);
        cr_ = cr_ || std::memchr(piece, '\r', got);
        have += got;
        if (have >= size && got < asked) break;  // a short read past fstat's size: the end of the file
    }
    if (have > max_size) return ReadFailure::over_limit(have);
    return std::string_view(s.buffer.get(), have);
}

void SearchReader::release_above(std::size_t keep) {
    if (impl_->capacity <= keep) return;
    impl_->buffer.reset();
    impl_->capacity = 0;
}

}  // namespace os
