// Reading one folder on Windows for the directory walk: the folders from its held root pinned
// (no junction or symlink on the way), the entries read with FindFirstFileExW.
#include "os/directory_walk.hpp"
#include "os/windows_system.hpp"

#include <cerrno>

namespace os {

base::Result<DirectoryListing, int> read_directory(const std::string& real_dir, std::size_t max_entries,
                                                   bool with_stat) {
    win::PinnedFolders pinned;
    if (!win::pin_folders(real_dir, pinned)) return base::fail(ELOOP);
    const FileStat self = stat_path(real_dir);
    if (self.kind != FileKind::directory) return base::fail(self.kind == FileKind::missing ? ENOENT : ENOTDIR);
    DirectoryListing out;
    out.identity = self.identity;
    std::string pattern = real_dir;
    if (pattern.empty() || pattern.back() != '/') pattern += '/';
    pattern += '*';
    WIN32_FIND_DATAW data{};
    HANDLE find = FindFirstFileExW(win::system_path(pattern).c_str(), FindExInfoBasic, &data, FindExSearchNameMatch,
                                   nullptr, FIND_FIRST_EX_LARGE_FETCH);
    if (find == INVALID_HANDLE_VALUE) {
        const DWORD code = GetLastError();
        if (code == ERROR_FILE_NOT_FOUND || code == ERROR_NO_MORE_FILES) return out;  // empty
        return base::fail(win::errno_of(code));
    }
    do {
        const std::wstring_view wide(data.cFileName);
        if (wide == L"." || wide == L"..") continue;
        if (out.entries.size() >= max_entries) {
            ++out.unread;
            continue;
        }
        DirectoryEntry entry;
        entry.name = win::narrow(wide);
        if (data.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) {
            entry.symlink = true;  // a symlink or junction: the walk resolves it
        } else if (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
            entry.kind = FileKind::directory;
        } else {
            entry.kind = FileKind::regular;
            if (with_stat) {
                entry.size = (static_cast<std::uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
                LARGE_INTEGER t;
                t.LowPart = data.ftLastWriteTime.dwLowDateTime;
                t.HighPart = static_cast<LONG>(data.ftLastWriteTime.dwHighDateTime);
                entry.mtime_ns = win::unix_nanoseconds(t.QuadPart);  // as stat_path reports it
                entry.stat_known = true;
            }
        }
        out.entries.push_back(std::move(entry));
    } while (FindNextFileW(find, &data));
    const DWORD last = GetLastError();
    FindClose(find);
    if (last != ERROR_NO_MORE_FILES) return base::fail(win::errno_of(last));
    return out;
}

}  // namespace os
