// Windows implementation of os/file_writes.hpp: a replacement is written to a temp file
// beside the target, flushed, then moved over it with ReplaceFileW (which keeps the target's ACL
// and attributes) or MoveFileExW. A target another program holds open without delete sharing (an
// editor, a virus scan) gets a short, bounded retry, then a clear error; nothing is half-written.
// Also in-place overwrites, directories made and removed, files removed.
#include "os/file_writes.hpp"
#include "os/paths.hpp"
#include "os/system_paths.hpp"
#include "os/temp_names.hpp"
#include "os/windows_system.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <utility>

namespace os {

using namespace win;

namespace {

base::Unexpected<base::Failure> failed(std::string message, base::ErrorReason reason = base::ErrorReason::io_error) {
    return base::fail(base::Failure{std::move(message), reason});
}

base::Result<void> write_all(HANDLE h, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        DWORD wrote = 0;
        const DWORD part = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
        if (!WriteFile(h, bytes.data() + done, part, &wrote, nullptr)) return failed(system_message(GetLastError()));
        done += wrote;
    }
    return {};
}

// Creates a fresh temp file beside `target` (its path in `temp_path`; os/temp_names.hpp); the handle
// is the caller's.
base::Result<HANDLE> create_temp_beside(const std::string& target, os::TempPurpose purpose, std::string& temp_path) {
    const std::string dir = os::parent_of(target);
    for (int attempt = 0; attempt < 16; ++attempt) {
        temp_path = (dir.back() == '/' ? dir : dir + "/") + os::temp_file_name(purpose);
        HANDLE h = CreateFileW(system_path(temp_path).c_str(), GENERIC_WRITE | DELETE, share_all, nullptr, CREATE_NEW,
                               FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h != INVALID_HANDLE_VALUE) return h;
        const DWORD e = GetLastError();
        if (e != ERROR_FILE_EXISTS && e != ERROR_ALREADY_EXISTS)
            return failed("cannot create a temp file in " + dir + ": " + system_message(e));
    }
    return failed("cannot create a temp file in " + dir + ": too many name collisions");
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

base::Result<StagedWrite> stage_write(const std::string& target, std::span<const std::string_view> parts,
                                      const FileStat* like, bool sync) {
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(target), pinned); !pinned_ok)
        return base::fail(std::move(pinned_ok.error()));
    StagedWrite out;
    out.target = target;
    auto temp = create_temp_beside(target, os::TempPurpose::stage, out.temp_path);
    if (!temp) return base::fail(std::move(temp.error()));
    Handle h(temp.value());
    base::Result<void> written;
    for (const auto bytes : parts)
        if (written) written = write_all(h.h, bytes);
    if (written && sync && !FlushFileBuffers(h.h)) written = failed("flush: " + system_message(GetLastError()));
    CloseHandle(h.release());
    // The target's attributes (read-only among them) come back when it is replaced: commit_staged.
    (void)like;
    if (!written) {
        DeleteFileW(system_path(out.temp_path).c_str());
        return base::fail(std::move(written.error()));
    }
    return out;
}

base::Result<void> commit_staged(const StagedWrite& staged, bool /*sync*/) {
    const std::wstring temp = system_path(staged.temp_path);
    const std::wstring target = system_path(staged.target);
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(staged.target), pinned); !pinned_ok) {
        DeleteFileW(temp.c_str());
        return pinned_ok;
    }
    if (pinned.confined()) {
        const DWORD attributes = GetFileAttributesW(target.c_str());
        if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
            DeleteFileW(temp.c_str());
            return failed("the path " + staged.target +
                              " changed after it was checked (it is a symlink now), so nothing was "
                              "written; call again and the path is resolved afresh",
                          base::ErrorReason::conflict);
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
        if (existed
                ? ReplaceFileW(target.c_str(), temp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr, nullptr)
                : MoveFileExW(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
            return {};
        }
        last = GetLastError();
        // Some file systems (and Wine) do not support ReplaceFileW: a plain move is still atomic.
        if (existed &&
            (last == ERROR_INVALID_FUNCTION || last == ERROR_NOT_SUPPORTED || last == ERROR_CALL_NOT_IMPLEMENTED) &&
            MoveFileExW(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
            if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
            return {};
        }
        if (!transient(last)) break;
        std::this_thread::sleep_for(replace_pause);
    }
    if (read_only) SetFileAttributesW(target.c_str(), old_attributes);
    DeleteFileW(temp.c_str());
    std::string message = "cannot replace " + staged.target + ": " + system_message(last);
    if (transient(last))
        message +=
            " (another program, an editor or a virus scanner, holds it open; it was retried for half a second. "
            "Close it there and call again)";
    return failed(std::move(message));
}

void discard_staged(const StagedWrite& staged) { DeleteFileW(system_path(staged.temp_path).c_str()); }

base::Result<void> overwrite_in_place(const std::string& target, std::string_view old_bytes, std::string_view bytes,
                                      bool sync) {
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(target), pinned); !pinned_ok) return pinned_ok;
    std::string backup;
    auto backup_handle = create_temp_beside(target, os::TempPurpose::backup, backup);
    if (!backup_handle) return base::fail(std::move(backup_handle.error()));
    Handle b(backup_handle.value());
    base::Result<void> kept = write_all(b.h, old_bytes);
    if (kept && sync && !FlushFileBuffers(b.h)) kept = failed("flush: " + system_message(GetLastError()));
    CloseHandle(b.release());
    if (!kept) {
        DeleteFileW(system_path(backup).c_str());
        return kept;
    }
    Handle h(CreateFileW(system_path(target).c_str(), GENERIC_WRITE, share_all, nullptr, OPEN_EXISTING,
                         FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!h.ok()) {
        std::string message = "cannot open " + target + " for writing: " + system_message(GetLastError());
        DeleteFileW(system_path(backup).c_str());
        return failed(std::move(message));
    }
    base::Result<void> written = write_all(h.h, bytes);
    if (written && !SetEndOfFile(h.h))
        written = failed("cannot set the length of " + target + ": " + system_message(GetLastError()));
    if (written && sync && !FlushFileBuffers(h.h)) written = failed("flush: " + system_message(GetLastError()));
    CloseHandle(h.release());
    if (!written) return failed(written.error().message + "; the previous content is kept in " + backup);
    DeleteFileW(system_path(backup).c_str());
    return {};
}

base::Result<void> make_directories(const std::string& dir, bool sync) {
    if (dir.empty() || dir == filesystem_root(dir)) return {};
    const DWORD attributes = GetFileAttributesW(system_path(dir).c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES) {
        if (attributes & FILE_ATTRIBUTE_DIRECTORY) return {};
        return failed(dir + " exists and is not a directory", base::ErrorReason::not_a_file);
    }
    if (auto parent = make_directories(os::parent_of(dir), sync); !parent) return parent;
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(dir), pinned); !pinned_ok) return pinned_ok;
    if (!CreateDirectoryW(system_path(dir).c_str(), nullptr) && GetLastError() != ERROR_ALREADY_EXISTS)
        return failed("cannot create directory " + dir + ": " + system_message(GetLastError()));
    return {};
}

base::Result<void> remove_file(const std::string& path, bool /*sync*/) {
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(path), pinned); !pinned_ok) return pinned_ok;
    const std::wstring w = system_path(path);
    for (int attempt = 0;; ++attempt) {
        if (DeleteFileW(w.c_str())) return {};
        const DWORD e = GetLastError();
        if (!transient(e) || attempt + 1 == replace_attempts)
            return failed("cannot remove " + path + ": " + system_message(e),
                          e == ERROR_FILE_NOT_FOUND ? base::ErrorReason::not_found : base::ErrorReason::io_error);
        std::this_thread::sleep_for(replace_pause);
    }
}

base::Result<void> remove_empty_directory(const std::string& path, bool /*sync*/) {
    PinnedFolders pinned;
    if (auto pinned_ok = pin_folders(os::parent_of(path), pinned); !pinned_ok) return pinned_ok;
    if (RemoveDirectoryW(system_path(path).c_str())) return {};
    const DWORD e = GetLastError();
    if (e == ERROR_DIR_NOT_EMPTY) return failed("the folder is not empty", base::ErrorReason::exists);
    return failed(system_message(e));
}

}  // namespace os
