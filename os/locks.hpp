// One process at a time: an exclusive lock on a file (one server per history journal), and the lock
// of a folder every mcp-edit process takes around the re-check and the rename of a file in it.
// POSIX: FileLock in locks_posix.cpp, FolderLock in folder_lock_posix.cpp; Windows: both in
// locks_windows.cpp.
#pragma once

#include <string>

#include "base/result.hpp"

namespace os {

// An exclusive lock on the file `path` (created, mode 0600, when missing), held until the object
// is destroyed or the process ends (the OS drops it even after a crash). POSIX: flock; Windows:
// LockFileEx. Not waited for: when another process holds it, take_lock fails at once and says so
// (reason conflict; any other failure is io_error).
class FolderLock;
class FileLock {
public:
    FileLock() = default;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();
    bool held() const { return handle_ != nullptr; }

private:
    friend base::Result<void> take_lock(const std::string& path, FileLock& lock);
    friend base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);  // Windows: one take_lock
    void* handle_ = nullptr;  // the open file (POSIX: its descriptor + 1)
};
base::Result<void> take_lock(const std::string& path, FileLock& lock);

// The lock every mcp-edit process on this machine takes for the folder `dir` around the re-check
// and the rename of a file in it, so that of two servers on one tree the second re-checks against
// the first one's result. Held until the object is destroyed (or the process ends).
// POSIX (os/folder_lock_posix.cpp): flock on `.mcp-edit-lock`, a file created (mode 0600) in the
// folder and removed when let go. Taking it needs what the write needs anyway, permission to write
// the folder: any process that can merely read a folder could flock the folder itself and stall
// every write there. A folder this user cannot write (where only in-place writes happen) is
// flocked itself. Windows: LockFileEx on a lock file named after the folder in the user's temp
// folder.
class FolderLock {
public:
    FolderLock() = default;
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock();
    bool held() const { return handle_ != nullptr; }

private:
    friend base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);
    void* handle_ = nullptr;  // the locked file (POSIX: its descriptor + 1)
    int folder_ = -1;         // POSIX: the folder's descriptor, to remove the lock file when let go
};

// One try at the lock of the folder `dir`, never waiting: true when taken; false when another
// process holds it (the caller waits without blocking and tries again: see tools/pipeline/transaction.cpp).
// Fails (io_error) when the folder cannot be opened or its lock file is not a plain file.
base::Result<bool> try_lock_folder(const std::string& dir, FolderLock& lock);

// Who holds the lock of the folder `dir`, in words for an error or the log, such as
// "process 4242 (mcp-edit, user alice, stopped)"; "" when it cannot be told (Windows; a process
// this one cannot see). Reads /proc/locks on Linux.
std::string folder_lock_holder(const std::string& dir);

// Whether an mcp-edit process holds the lock of the folder `dir` right now: a change there is being
// committed. Windows replaces a file in two steps (ReplaceFileW leaves a moment, under Wine a longer
// one, where the name is missing), so a reader that finds no file asks this and, when true, waits
// for the commit and looks again. POSIX: always false, as a rename leaves no such moment (and
// asking would create the lock file in the reader's folder).
bool folder_being_committed(const std::string& dir);

}  // namespace os
