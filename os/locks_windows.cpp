// Windows implementation of os/locks.hpp: LockFileEx on a file of its own; a folder's lock is such a
// lock on a file named after the folder (as NTFS compares names) in the user's temp folder.
#include "os/locks.hpp"

#include <windows.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "os/system_paths.hpp"
#include "os/windows_system.hpp"

namespace os {

using namespace win;

FileLock::~FileLock() {
    if (handle_) CloseHandle(handle_);  // drops the lock
}

base::Result<void> take_lock(const std::string& path, FileLock& lock) {
    Handle h(CreateFileW(system_path(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.ok())
        return base::fail(base::Failure{"cannot open it (Windows error " + std::to_string(GetLastError()) + ")",
                                        base::ErrorReason::io_error});
    OVERLAPPED at{};
    if (!LockFileEx(h.h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) {
        const DWORD code = GetLastError();
        if (code == ERROR_LOCK_VIOLATION)
            return base::fail(base::Failure{"another process holds it", base::ErrorReason::conflict});
        return base::fail(
            base::Failure{"cannot lock it (Windows error " + std::to_string(code) + ")", base::ErrorReason::io_error});
    }
    lock.handle_ = h.release();
    return {};
}

FolderLock::~FolderLock() {
    if (handle_) CloseHandle(handle_);  // drops the lock
}

base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock) {
    // The folder's name as NTFS compares names (upper-cased), hashed (FNV-1a) into a lock file's name.
    std::wstring name = widen(dir);
    CharUpperBuffW(name.data(), static_cast<DWORD>(name.size()));
    std::uint64_t hash = 1469598103934665603ull;
    for (wchar_t c : name) hash = (hash ^ static_cast<std::uint16_t>(c)) * 1099511628211ull;
    wchar_t temp[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, temp);
    if (n == 0 || n > MAX_PATH)
        return base::fail(
            base::Failure{"cannot find the temp folder for the lock of " + dir, base::ErrorReason::io_error});
    const std::string locks = normalize_separators(narrow(std::wstring_view(temp, n))) + "/mcp-edit-locks";
    CreateDirectoryW(system_path(locks).c_str(), nullptr);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    FileLock taken_lock;
    auto taken = take_lock(locks + "/" + hex + ".lock", taken_lock);
    if (!taken) {
        if (taken.error().reason == base::ErrorReason::conflict) return false;
        return base::fail(
            base::Failure{"cannot lock the folder " + dir + ": " + taken.error().message, base::ErrorReason::io_error});
    }
    lock.handle_ = std::exchange(taken_lock.handle_, nullptr);
    return true;
}

std::string folder_lock_holder(const std::string&) { return {}; }  // Windows does not say who holds a LockFileEx lock

}  // namespace os
