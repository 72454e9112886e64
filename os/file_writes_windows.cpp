// Windows implementation of platform.hpp's writing half: a replacement is written to a temp file
// beside the target, flushed, then moved over it with ReplaceFileW (which keeps the target's ACL
// and attributes) or MoveFileExW. A target another program holds open without delete sharing (an
// editor, a virus scan) gets a short, bounded retry, then a clear error; nothing is half-written.
// Also in-place overwrites, directories, private files and the lock (LockFileEx) that keeps a
// second server out of a history journal.
#include "os/platform.hpp"
#include "os/paths.hpp"
#include "os/windows_system.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <thread>

namespace platform {

using namespace win;

namespace {

std::string random_suffix() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s;
    for (int i = 0; i < 10; ++i) s += alphabet[rng() % (sizeof alphabet - 1)];
    return s;
}

bool write_all(HANDLE h, std::string_view bytes, std::string& error) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        DWORD wrote = 0;
        const DWORD part = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
        if (!WriteFile(h, bytes.data() + done, part, &wrote, nullptr)) {
            error = system_message(GetLastError());
            return false;
        }
        done += wrote;
    }
    return true;
}

// Creates a fresh temp file beside `target`.
HANDLE create_temp_beside(const std::string& target, const char* purpose, std::string& temp_path, std::string& error) {
    const std::string dir = os::parent_of(target);
    const std::string name = std::string(os::name_of(target));
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp_path = (dir.back() == '/' ? dir : dir + "/") + "." + name + "." + purpose + "-" + random_suffix();
        HANDLE h = CreateFileW(system_path(temp_path).c_str(), GENERIC_WRITE | DELETE, share_all, nullptr, CREATE_NEW,
                               FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h != INVALID_HANDLE_VALUE) return h;
        const DWORD e = GetLastError();
        if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS) {
            error = "cannot create a temp file in " + dir + ": " + system_message(e);
            return INVALID_HANDLE_VALUE;
        }
    }
    error = "cannot create a temp file in " + dir + ": too many name collisions";
    return INVALID_HANDLE_VALUE;
}

// Another program holding the target open without delete sharing makes a replace fail with a
// sharing or access error; such holds are usually brief (a virus scan, an indexer).
bool transient(DWORD error) {
    return error == ERROR_SHARING_VIOLATION || error == ERROR_LOCK_VIOLATION || error == ERROR_ACCESS_DENIED ||
           error == ERROR_UNABLE_TO_REMOVE_REPLACED || error == ERROR_UNABLE_TO_MOVE_REPLACEMENT;
}

constexpr int replace_attempts = 10;
constexpr auto replace_pause = std::chrono::milliseconds(50);  // 10 x 50 ms: at most half a second

}  // namespace

bool stage_write(const std::string& target, std::string_view bytes, const FileStat* like, bool sync, StagedWrite& out,
                 std::string& error) {
    out.target = target;
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(target), pinned, error)) return false;
    Handle h(create_temp_beside(target, "mcp-edit", out.temp_path, error));
    if (!h.ok()) return false;
    bool ok = write_all(h.h, bytes, error);
    if (ok && sync && !FlushFileBuffers(h.h)) {
        error = "flush: " + system_message(GetLastError());
        ok = false;
    }
    CloseHandle(h.release());
    // The target's attributes (read-only among them) come back when it is replaced: commit_staged.
    (void)like;
    if (!ok) DeleteFileW(system_path(out.temp_path).c_str());
    return ok;
}

bool commit_staged(const StagedWrite& staged, bool /*sync*/, std::string& error) {
    const std::wstring temp = system_path(staged.temp_path);
    const std::wstring target = system_path(staged.target);
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(staged.target), pinned, error)) {
        DeleteFileW(temp.c_str());
        return false;
    }
    if (pinned.confined()) {
        const DWORD attributes = GetFileAttributesW(target.c_str());
        if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
            error = "the path " + staged.target + " changed after it was checked (it is a symlink now), so nothing was "
                    "written; call again and the path is resolved afresh";
            DeleteFileW(temp.c_str());
            return false;
        }
    }
    // A read-only target cannot be replaced: the attribute goes while the file is replaced and
    // comes back on the new file, as a mode does on POSIX.
    const DWORD old_attributes = GetFileAttributesW(target.c_str());
    const bool existed = old_attributes != INVALID_FILE_ATTRIBUTES;
    const bool read_only = existed && (old_attributes & FILE_ATTRIBUTE_READONLY);
    if (read_only) SetFileAttributesW(target.c_str(), old_attributes & ~FILE_ATTRIBUTE_READONLY);
    DWORD last = 0;
    for (int attempt = 0; attempt < replace_attempts; ++attempt) {
        // ReplaceFileW keeps the target's ACL, attributes and alternate streams.
        if (existed ? ReplaceFileW(target.c_str(), temp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr, nullptr)
                    : MoveFileExW(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
            return true;
        }
        last = GetLastError();
        // Some file systems (and Wine) do not support ReplaceFileW: a plain move is still atomic.
        if (existed && (last == ERROR_INVALID_FUNCTION || last == ERROR_NOT_SUPPORTED || last == ERROR_CALL_NOT_IMPLEMENTED) &&
            MoveFileExW(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
            return true;
        }
        if (!transient(last)) break;
        std::this_thread::sleep_for(replace_pause);
    }
    if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
    DeleteFileW(temp.c_str());
    error = "cannot replace " + staged.target + ": " + system_message(last);
    if (transient(last))
        error += " (another program, an editor or a virus scanner, holds it open; it was retried for half a second. "
                 "Close it there and call again)";
    return false;
}

void discard_staged(const StagedWrite& staged) { DeleteFileW(system_path(staged.temp_path).c_str()); }

bool overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes, bool sync,
                        std::string& error) {
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(target), pinned, error)) return false;
    std::string backup;
    Handle b(create_temp_beside(target, "mcp-edit-backup", backup, error));
    if (!b.ok()) return false;
    bool ok = write_all(b.h, old_bytes, error) && (!sync || FlushFileBuffers(b.h));
    CloseHandle(b.release());
    if (!ok) {
        DeleteFileW(system_path(backup).c_str());
        return false;
    }
    Handle h(CreateFileW(system_path(target).c_str(), GENERIC_WRITE, share_all, nullptr, OPEN_EXISTING,
                         FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.ok()) {
        error = "cannot open " + target + " for writing: " + system_message(GetLastError());
        DeleteFileW(system_path(backup).c_str());
        return false;
    }
    ok = write_all(h.h, bytes, error);
    if (ok && !SetEndOfFile(h.h)) {
        error = "cannot set the length of " + target + ": " + system_message(GetLastError());
        ok = false;
    }
    if (ok && sync && !FlushFileBuffers(h.h)) {
        error = "flush: " + system_message(GetLastError());
        ok = false;
    }
    CloseHandle(h.release());
    if (!ok) {
        error += "; the previous content is kept in " + backup;
        return false;
    }
    DeleteFileW(system_path(backup).c_str());
    return true;
}

bool make_directories(const std::string& dir, bool sync, std::string& error) {
    if (dir.empty() || dir == filesystem_root(dir)) return true;
    const DWORD attributes = GetFileAttributesW(system_path(dir).c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES) {
        if (attributes & FILE_ATTRIBUTE_DIRECTORY) return true;
        error = dir + " exists and is not a directory";
        return false;
    }
    if (!make_directories(os::parent_of(dir), sync, error)) return false;
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(dir), pinned, error)) return false;
    if (!CreateDirectoryW(system_path(dir).c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS) {
        error = "cannot create directory " + dir + ": " + system_message(GetLastError());
        return false;
    }
    return true;
}

bool remove_file(const std::string& path, bool /*sync*/, std::string& error) {
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(path), pinned, error)) return false;
    const std::wstring w = system_path(path);
    for (int attempt = 0; attempt < replace_attempts; ++attempt) {
        if (DeleteFileW(w.c_str())) return true;
        const DWORD e = GetLastError();
        if (!transient(e) || attempt + 1 == replace_attempts) {
            error = "cannot remove " + path + ": " + system_message(e);
            return false;
        }
        std::this_thread::sleep_for(replace_pause);
    }
    return false;
}

bool remove_empty_directory(const std::string& path, bool /*sync*/, std::string& error) {
    PinnedFolders pinned;
    if (!pin_folders(os::parent_of(path), pinned, error)) return false;
    if (RemoveDirectoryW(system_path(path).c_str())) return true;
    const DWORD e = GetLastError();
    error = e == ERROR_DIR_NOT_EMPTY ? std::string("the folder is not empty") : system_message(e);
    return false;
}

std::optional<std::string> make_private_directory(const std::string& prefix) {
    wchar_t temp[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, temp);
    if (n == 0 || n > MAX_PATH) return std::nullopt;
    const std::string base = normalize_separators(narrow(std::wstring_view(temp, n)));
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string dir = (base.back() == '/' ? base : base + "/") + prefix + random_suffix();
        // The default ACL of the user's temp folder already admits only this user (and admins).
        if (CreateDirectoryW(system_path(dir).c_str(), nullptr)) return dir;
        if (GetLastError() != ERROR_ALREADY_EXISTS) return std::nullopt;
    }
    return std::nullopt;
}

bool write_private_file(const std::string& path, std::string_view bytes) {
    Handle h(CreateFileW(system_path(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.ok()) return false;
    std::string error;
    const bool ok = write_all(h.h, bytes, error);
    CloseHandle(h.release());
    if (!ok) DeleteFileW(system_path(path).c_str());
    return ok;
}

bool remove_directory(const std::string& path) { return RemoveDirectoryW(system_path(path).c_str()) != 0; }

FileLock::~FileLock() {
    if (handle_) CloseHandle(handle_);  // drops the lock
}

bool take_lock(const std::string& path, FileLock& lock, bool& held_elsewhere, std::string& error) {
    held_elsewhere = false;
    Handle h(CreateFileW(system_path(path).c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                         OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.ok()) {
        error = "cannot open it (Windows error " + std::to_string(GetLastError()) + ")";
        return false;
    }
    OVERLAPPED at{};
    if (!LockFileEx(h.h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) {
        const DWORD code = GetLastError();
        held_elsewhere = code == ERROR_LOCK_VIOLATION;
        error = held_elsewhere ? "another process holds it" : "cannot lock it (Windows error " + std::to_string(code) + ")";
        return false;
    }
    lock.handle_ = h.release();
    return true;
}

bool lock_folder(const std::string& dir, std::chrono::milliseconds wait, FileLock& lock, std::string& error) {
    // The folder's name as NTFS compares names (upper-cased), hashed (FNV-1a) into a lock file's name.
    std::wstring name = widen(dir);
    CharUpperBuffW(name.data(), static_cast<DWORD>(name.size()));
    std::uint64_t hash = 1469598103934665603ull;
    for (wchar_t c : name) hash = (hash ^ static_cast<std::uint16_t>(c)) * 1099511628211ull;
    wchar_t temp[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, temp);
    if (n == 0 || n > MAX_PATH) {
        error = "cannot find the temp folder for the lock of " + dir;
        return false;
    }
    const std::string locks = normalize_separators(narrow(std::wstring_view(temp, n))) + "/mcp-edit-locks";
    CreateDirectoryW(system_path(locks).c_str(), nullptr);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    const std::string path = locks + "/" + hex + ".lock";
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        bool held_elsewhere = false;
        if (take_lock(path, lock, held_elsewhere, error)) return true;
        if (!held_elsewhere) {
            error = "cannot lock the folder " + dir + ": " + error;
            return false;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            error = "another mcp-edit process has held the lock of the folder " + dir + " for over " +
                    std::to_string(wait.count() / 1000) + " s";
            return false;
        }
        Sleep(2);
    }
}

}  // namespace platform
