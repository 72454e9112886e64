// POSIX implementation of os/file_reads.hpp: a regular file read whole, opened non-blocking (a FIFO
// or device never blocks) and, under a held root, reached from its descriptor with no symlink
// followed.
#include "os/file_reads.hpp"

#include <algorithm>
#include <cerrno>
#include <memory>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/confinement_posix.hpp"
#include "os/error_text.hpp"
#include "text/bytes/byte_buffer.hpp"

namespace os {

base::Result<ReadFile, ReadFailure> read_regular_file(const std::string& path, std::uint64_t max_size, bool keep_open,
                                                      std::size_t at_most) {
    int opened = -1;
    if (posix::under_held_root(path)) {
        posix::Located at;
        if (posix::locate(path, at))
            opened = ::openat(at.dir.get(), at.name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    } else {
        opened = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    }
    if (opened < 0) {
        const int e = errno;
        return ReadFailure::failed(e == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io,
                                   posix::walk_error(path, e));
    }
    posix::Fd fd(opened);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
    ReadFile out;
    out.stat = posix::from_stat(st);
    if (out.stat.kind != FileKind::regular) return ReadFailure::not_regular_file(out.stat.kind);
    if (out.stat.size > max_size) return ReadFailure::over_limit(out.stat.size);
    // Regular files ignore O_NONBLOCK. Read the size fstat gave, then keep reading to EOF in
    // small steps so a file that grew meanwhile is still read whole, within the cap.
    const bool whole = at_most == static_cast<std::size_t>(-1);
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(out.stat.size, at_most));
    text::reserve_bytes(out.bytes, want);
    out.bytes.resize(want);
    std::size_t have = 0;
    char probe[65536];
    for (;;) {
        const bool in_place = have < out.bytes.size();
        if (!in_place && !whole) break;  // the start was asked for, and read
        char* dst = in_place ? out.bytes.data() + have : probe;
        const std::size_t room = in_place ? out.bytes.size() - have : sizeof probe;
        const ssize_t n = ::read(fd.get(), dst, room);
        if (n < 0) {
            if (errno == EINTR) continue;
            return ReadFailure::failed(ReadFailure::Why::io, error_text(errno));
        }
        if (n == 0) break;
        if (!in_place) {
            if (have + static_cast<std::size_t>(n) > max_size)
                return ReadFailure::over_limit(have + static_cast<std::size_t>(n));
            out.bytes.append(probe, static_cast<std::size_t>(n));
        }
        have += static_cast<std::size_t>(n);
    }
    out.bytes.resize(have);
    if (whole) out.stat.size = have;
    if (keep_open) {
        out.open_file = std::shared_ptr<const void>(new int(fd.release()), [](const int* kept) {
            ::close(*kept);
            delete kept;
        });
    }
    return out;
}

}  // namespace os
