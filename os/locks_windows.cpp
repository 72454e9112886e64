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

namespace {

// The lock file of the folder `dir`: its name as NTFS compares names (upper-cased), hashed (FNV-1a)
// into a file name in the user's temp folder (created when missing). "" when there is no temp folder.
std::string folder_lock_file(const std::string& dir) {
    std::wstring name = widen(dir);
    CharUpperBuffW(name.data(), static_cast<DWORD>(name.size()));
    std::uint64_t hash = 1469598103934665603ull;
    for (wchar_t c : name) hash = (hash ^ static_cast<std::uint16_t>(c)) * 1099511628211ull;
    wchar_t temp[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, temp);
    if (n == 0 || n > MAX_PATH) return {};
    const std::string locks = normalize_separators(narrow(std::wstring_view(temp, n))) + "/mcp-edit-locks";
    CreateDirectoryW(system_path(locks).c_str(), nullptr);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return locks + "/" + hex + ".lock";
}

}  // namespace

base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock) {
    const std::string file = folder_lock_file(dir);
    if (file.empty())
        return base::fail(
            base::Failure{"cannot find the temp folder for the lock of " + dir, base::ErrorReason::io_error});
    FileLock taken_lock;
    auto taken = take_lock(file, taken_lock);
    if (!taken) {
        if (taken.error().reason == base::ErrorReason::conflict) return false;
        return base::fail(
            base::Failure{"cannot lock the folder " + dir + ": " + taken.error().message, base::ErrorReason::io_error});
    }
    lock.handle_ = std::exchange(taken_lock.handle_, nullptr);
    return true;
}

std::string folder_lock_holder(const std::string&) { return {}; }  // Windows does not say who holds a LockFileEx lock

bool folder_being_committed(const std::string& dir) {
    const std::string file = folder_lock_file(dir);
    if (file.empty()) return false;
    Handle h(CreateFileW(system_path(file).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.ok()) return false;  // no lock file: nobody ever committed there
    OVERLAPPED at{};
    if (LockFileEx(h.h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) {
        UnlockFileEx(h.h, 0, 1, 0, &at);
        return false;
    }
    return GetLastError() == ERROR_LOCK_VIOLATION;
}

}  // namespace os
