// Windows helpers that the two halves of the platform layer share (platform_windows.cpp: paths,
// stat, reads; file_writes_windows.cpp: staged writes, directories, locks): UTF-8 <-> UTF-16, the
// `\\?\` form of a path, error codes and messages, and a handle that closes itself. Included only
// by *_windows.cpp files.
#pragma once

#include <windows.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace platform::win {

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

}  // namespace platform::win
