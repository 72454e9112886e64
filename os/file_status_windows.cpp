// Windows implementation of os/file_status.hpp: a handle's kind, identity (volume serial number and
// file index), size, times and read-only attribute; the folders on the way pinned under a held root.
#include "os/file_status.hpp"

#include <windows.h>

#include <cstdint>
#include <string>

#include "os/paths.hpp"
#include "os/windows_system.hpp"

namespace os {

using namespace win;

HANDLE win::open_path(const std::string& path, bool read, bool own_link) {
    return CreateFileW(system_path(path).c_str(), read ? GENERIC_READ : FILE_READ_ATTRIBUTES, share_all, nullptr,
                       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | (own_link ? FILE_FLAG_OPEN_REPARSE_POINT : 0),
                       nullptr);
}

bool win::is_reparse_point(HANDLE h) {
    BY_HANDLE_FILE_INFORMATION info{};
    return GetFileInformationByHandle(h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

// The raw count times 100 would overflow 64 bits: the epoch is taken off first.
std::int64_t win::unix_nanoseconds(std::int64_t filetime) {
    constexpr std::int64_t unix_epoch = 116444736000000000;  // 1970-01-01 in 100 ns units since 1601
    return (filetime - unix_epoch) * 100;
}

namespace {

std::int64_t nanoseconds(LARGE_INTEGER filetime) { return win::unix_nanoseconds(filetime.QuadPart); }

}  // namespace

FileStat win::stat_handle(HANDLE h) {
    FileStat s;
    BY_HANDLE_FILE_INFORMATION info{};
    FILE_BASIC_INFO basic{};
    if (!GetFileInformationByHandle(h, &info) || !GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic))
        return s;
    const DWORD type = GetFileType(h);
    if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
        s.kind = FileKind::directory;
    else if (type == FILE_TYPE_DISK)
        s.kind = FileKind::regular;
    else if (type == FILE_TYPE_PIPE)
        s.kind = FileKind::fifo;
    else if (type == FILE_TYPE_CHAR)
        s.kind = FileKind::char_device;
    else
        s.kind = FileKind::other;
    s.identity = {info.dwVolumeSerialNumber,
                  (static_cast<std::uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
    s.size = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    // The read-only attribute as POSIX permission bits, so a change keeps it like a mode.
    s.mode = (info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) ? 0444 : 0666;
    s.links = info.nNumberOfLinks;
    s.mtime_ns = nanoseconds(basic.LastWriteTime);
    s.ctime_ns = nanoseconds(basic.ChangeTime);
    return s;
}

FileStat stat_path(const std::string& path) {
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(path), pinned)) return FileStat{};
    Handle h(open_path(path, false, pinned.confined()));
    if (!h.ok()) return FileStat{};
    FileStat s = stat_handle(h.h);
    if (pinned.confined() && is_reparse_point(h.h)) s.kind = FileKind::other;
    return s;
}

base::Result<void> may_write(const std::string&, const FileStat& st) {
    if ((st.mode & 0222) != 0) return {};
    return base::fail(base::Failure{"it has the read-only attribute", base::ErrorReason::not_writable});
}

bool is_symlink(const std::string& path) {
    WIN32_FILE_ATTRIBUTE_DATA data{};
    if (!GetFileAttributesExW(system_path(path).c_str(), GetFileExInfoStandard, &data)) return false;
    return (data.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;  // symlinks and junctions
}

const char* describe(FileKind kind) {
    switch (kind) {
        case FileKind::missing: return "missing";
        case FileKind::regular: return "a regular file";
        case FileKind::directory: return "a directory";
        case FileKind::fifo: return "a named pipe";
        case FileKind::socket: return "a socket";
        case FileKind::char_device: return "a character device";
        case FileKind::block_device: return "a block device";
        case FileKind::other: break;
    }
    return "not a regular file";
}

}  // namespace os
