// Windows helpers that the *_windows.cpp files of this layer share: UTF-8 <-> UTF-16, the `\\?\`
// form of a path, error codes and messages (system_strings_windows.cpp), a handle that closes
// itself, the folders pinned on the way to a path (confinement_windows.cpp), and a file opened and
// its stat read by handle (file_status_windows.cpp). Included only by *_windows.cpp files.
#pragma once

#include <windows.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "os/file_status.hpp"

namespace os::win {

std::wstring widen(std::string_view s);
std::string narrow(std::wstring_view s);

// The path as the system takes it: absolute paths get the `\\?\` prefix (no length limit; `.` and
// `..` must then be gone, so the path is made full first), relative ones only backslashes.
std::wstring system_path(const std::string& utf8);

// The errno value closest to a Windows error code.
int errno_of(DWORD error);

// The system's message for an error code, in English where it can, without the trailing newline.
std::string system_message(DWORD error);

struct Handle {
    HANDLE h = INVALID_HANDLE_VALUE;
    explicit Handle(HANDLE handle) : h(handle) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
        if (h != INVALID_HANDLE_VALUE) CloseHandle(h);
    }
    bool ok() const { return h != INVALID_HANDLE_VALUE; }
    HANDLE release() {
        HANDLE out = h;
        h = INVALID_HANDLE_VALUE;
        return out;
    }
};

constexpr DWORD share_all = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

// The folders from the held root that contains `dir` down to `dir` (confinement_windows.cpp),
// each opened without delete sharing, so that none can be renamed, removed or replaced by a
// junction or symlink while they are held, and each checked by its handle to be a folder and no
// reparse point. Nothing is held for a path under no held root (the server's own files).
class PinnedFolders {
public:
    PinnedFolders() = default;
    PinnedFolders(const PinnedFolders&) = delete;
    PinnedFolders& operator=(const PinnedFolders&) = delete;
    ~PinnedFolders();
    bool confined() const { return confined_; }

private:
    friend base::Result<void> pin_folders(const std::string& dir, PinnedFolders& out);
    std::vector<HANDLE> handles_;
    bool confined_ = false;
};
// Fails (reason conflict: "the path ... changed after it was checked") when a folder on the way is
// a reparse point or missing; invalid_arguments when the path has a `.` or `..` in it.
base::Result<void> pin_folders(const std::string& dir, PinnedFolders& out);

// A FILETIME count (100 ns units since 1601) as nanoseconds since 1970, as FileStat keeps times.
std::int64_t unix_nanoseconds(std::int64_t filetime);

// Opens for reading attributes (and the data when `read`); directories too; follows links unless
// `own_link` (then a symlink or junction itself is opened). file_status_windows.cpp, as the two
// below.
HANDLE open_path(const std::string& path, bool read, bool own_link = false);
bool is_reparse_point(HANDLE h);
// The handle's file as FileStat: kind, identity, size, the read-only attribute as mode 0444, times.
FileStat stat_handle(HANDLE h);

}  // namespace os::win
