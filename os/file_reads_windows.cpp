// Windows implementation of os/file_reads.hpp: a regular file read whole through ReadFile, the
// folders on the way pinned under a held root, a reparse point at the end refused there.
#include "os/file_reads.hpp"

#include <windows.h>

#include <algorithm>
#include <cerrno>
#include <memory>

#include "os/paths.hpp"
#include "os/windows_system.hpp"
#include "text/bytes/byte_buffer.hpp"

namespace os {

using namespace win;

base::Result<ReadFile, ReadFailure> read_regular_file(const std::string& path, std::uint64_t max_size, bool keep_open,
                                                      std::size_t at_most) {
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(path), pinned); !pinned_ok)
        return ReadFailure::failed(ReadFailure::Why::io, std::move(pinned_ok.error().message));
    Handle h(open_path(path, true, pinned.confined()));
    if (h.ok() && pinned.confined() && is_reparse_point(h.h))
        return ReadFailure::failed(
            ReadFailure::Why::io,
            "the path " + path + " changed after it was checked (it is a symlink now); call again");
    if (!h.ok()) {
        const DWORD e = GetLastError();
        return ReadFailure::failed(errno_of(e) == ENOENT ? ReadFailure::Why::not_found : ReadFailure::Why::io,
                                   system_message(e));
    }
    ReadFile out;
    out.stat = stat_handle(h.h);
    if (out.stat.kind != FileKind::regular) return ReadFailure::not_regular_file(out.stat.kind);
    if (out.stat.size > max_size) return ReadFailure::over_limit(out.stat.size);
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
        DWORD got = 0;
        if (!::ReadFile(h.h, dst, static_cast<DWORD>(std::min<std::size_t>(room, 1u << 30)), &got, nullptr))
            return ReadFailure::failed(ReadFailure::Why::io, system_message(GetLastError()));
        if (got == 0) break;
        if (!in_place) {
            if (have + got > max_size) return ReadFailure::over_limit(have + got);
            out.bytes.append(probe, got);
        }
        have += got;
    }
    out.bytes.resize(have);
    if (whole) out.stat.size = have;
    if (keep_open) {
        out.open_file = std::shared_ptr<const void>(h.release(), [](HANDLE kept) { CloseHandle(kept); });
    }
    return out;
}

}  // namespace os
