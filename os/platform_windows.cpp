// Windows implementation of platform.hpp's paths, stat and reads. UTF-8 paths with `/` come in;
// the system gets UTF-16 `\\?\` paths (no MAX_PATH limit) through the ...W APIs. Real paths come
// from GetFinalPathNameByHandleW, file identity from the volume serial number and file index.
// Console close events end the session. Writing is in file_writes_windows.cpp.
#include "os/platform.hpp"
#include "os/paths.hpp"
#include "os/windows_system.hpp"

#include <windows.h>
#include <shlobj.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <vector>

#include "text/bytes/byte_buffer.hpp"

namespace platform {

namespace win {

std::wstring widen(std::string_view s) {
    if (s.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), out.data(), n);
    return out;
}

std::string narrow(std::wstring_view s) {
    if (s.empty()) return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0, nullptr, nullptr);
    std::string out(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), out.data(), n, nullptr, nullptr);
    return out;
}

std::wstring system_path(const std::string& utf8) {
    std::wstring w = widen(normalize_separators(utf8));
    for (auto& c : w)
        if (c == L'/') c = L'\\';
    if (!is_absolute(utf8)) return w;
    const DWORD n = GetFullPathNameW(w.c_str(), 0, nullptr, nullptr);
    if (n > 0) {
        std::wstring full(n, L'\0');
        const DWORD got = GetFullPathNameW(w.c_str(), n, full.data(), nullptr);
        if (got > 0 && got < n) {
            full.resize(got);
            w = std::move(full);
        }
    }
    if (w.starts_with(L"\\\\?\\")) return w;
    if (w.starts_with(L"\\\\")) return L"\\\\?\\UNC\\" + w.substr(2);
    return L"\\\\?\\" + w;
}

int errno_of(DWORD error) {
    switch (error) {
        case ERROR_FILE_NOT_FOUND:
        case ERROR_PATH_NOT_FOUND:
        case ERROR_INVALID_NAME:
        case ERROR_BAD_NETPATH:
        case ERROR_INVALID_DRIVE: return ENOENT;
        case ERROR_ACCESS_DENIED:
        case ERROR_SHARING_VIOLATION:
        case ERROR_LOCK_VIOLATION: return EACCES;
        case ERROR_FILE_EXISTS:
        case ERROR_ALREADY_EXISTS: return EEXIST;
        case ERROR_DIRECTORY: return ENOTDIR;
        case ERROR_CANT_RESOLVE_FILENAME: return ELOOP;
        default: return EIO;
    }
}

std::string system_message(DWORD error) {
    wchar_t* text = nullptr;
    const DWORD n = FormatMessageW(
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, error,
        MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string out = n ? narrow(std::wstring_view(text, n)) : "Windows error " + std::to_string(error);
    if (text) LocalFree(text);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' ' || out.back() == '.'))
        out.pop_back();
    return out;
}

}  // namespace win

using namespace win;

namespace {

bool drive_letter_at(std::string_view p) {
    return p.size() >= 2 && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':';
}

// Opens for reading attributes (and the data when `read`); directories too; follows links unless
// `own_link` (then a symlink or junction itself is opened).
HANDLE open_path(const std::string& path, bool read, bool own_link = false) {
    return CreateFileW(system_path(path).c_str(), read ? GENERIC_READ : FILE_READ_ATTRIBUTES, share_all, nullptr,
                       OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | (own_link ? FILE_FLAG_OPEN_REPARSE_POINT : 0),
                       nullptr);
}

bool is_reparse_point(HANDLE h) {
    BY_HANDLE_FILE_INFORMATION info{};
    return GetFileInformationByHandle(h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
}

}  // namespace

// A FILETIME (100 ns units since 1601) as nanoseconds since 1970, as POSIX's stat gives them (the
// raw count times 100 would overflow 64 bits).
std::int64_t win::unix_nanoseconds(std::int64_t filetime) {
    constexpr std::int64_t unix_epoch = 116444736000000000;  // 1970-01-01 in 100 ns units since 1601
    return (filetime - unix_epoch) * 100;
}

namespace {

std::int64_t nanoseconds(LARGE_INTEGER filetime) { return win::unix_nanoseconds(filetime.QuadPart); }

FileStat stat_handle(HANDLE h) {
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

// The action of the living ConsoleCloseHook (empty when there is none), and the lock that the
// handler's thread and the hook's destructor share.
std::mutex console_close_lock;
std::function<void()> console_close_action;

BOOL WINAPI console_handler(DWORD event) {
    if (event != CTRL_CLOSE_EVENT && event != CTRL_LOGOFF_EVENT && event != CTRL_SHUTDOWN_EVENT) return FALSE;
    {
        const std::lock_guard lock(console_close_lock);
        if (!console_close_action) return FALSE;
        console_close_action();
    }
    // The process ends when this returns: give the server time to finish (main returns first).
    Sleep(4000);
    return TRUE;
}

}  // namespace

bool is_absolute(std::string_view path) {
    if (path.starts_with("\\\\?\\")) return true;
    if (drive_letter_at(path)) return path.size() >= 3 && (path[2] == '/' || path[2] == '\\');
    return path.size() >= 3 && (path[0] == '/' || path[0] == '\\') && (path[1] == '/' || path[1] == '\\') &&
           path[2] != '/' && path[2] != '\\';
}

std::string normalize_separators(std::string path) {
    if (path.starts_with("\\\\?\\UNC\\"))
        path = "\\\\" + path.substr(8);
    else if (path.starts_with("\\\\?\\"))
        path = path.substr(4);
    for (auto& c : path)
        if (c == '\\') c = '/';
    if (drive_letter_at(path) && path[0] >= 'a' && path[0] <= 'z') path[0] = static_cast<char>(path[0] - 'a' + 'A');
    return path;
}

std::string filesystem_root(std::string_view path) {
    if (!is_absolute(path)) return "";
    const std::string p = normalize_separators(std::string(path));
    if (drive_letter_at(p)) return p.substr(0, 3);
    // //server/share/
    const auto server_end = p.find('/', 2);
    if (server_end == std::string::npos) return p + "/";
    const auto share_end = p.find('/', server_end + 1);
    return share_end == std::string::npos ? p + "/" : p.substr(0, share_end + 1);
}

bool same_path(std::string_view a, std::string_view b) {
    const std::wstring wa = widen(a), wb = widen(b);
    return CompareStringOrdinal(wa.data(), static_cast<int>(wa.size()), wb.data(), static_cast<int>(wb.size()), TRUE) ==
           CSTR_EQUAL;
}

ConsoleCloseHook::ConsoleCloseHook(std::function<void()> request_stop) {
    {
        const std::lock_guard lock(console_close_lock);
        console_close_action = std::move(request_stop);
    }
    SetConsoleCtrlHandler(console_handler, TRUE);
}

ConsoleCloseHook::~ConsoleCloseHook() {
    SetConsoleCtrlHandler(console_handler, FALSE);
    const std::lock_guard lock(console_close_lock);
    console_close_action = nullptr;
}

std::string error_text(int err) {
    switch (err) {
        case ENOENT: return "No such file or directory";
        case EACCES: return "Permission denied (or the file is open in another program)";
        case EEXIST: return "File exists";
        case ENOTDIR: return "Not a directory";
        case ELOOP: return "Too many levels of symbolic links";
        default: return "Input/output error";
    }
}

std::optional<std::string> home_directory() {
    for (const wchar_t* name : {L"USERPROFILE", L"HOME"}) {
        wchar_t buffer[32768];
        const DWORD n = GetEnvironmentVariableW(name, buffer, 32768);
        if (n > 0 && n < 32768) {
            std::string home = normalize_separators(narrow(std::wstring_view(buffer, n)));
            if (is_absolute(home)) return home;
        }
    }
    return std::nullopt;
}

// "C:\\dir\\file" from the volume `path` is on and the handle's name on that volume.
std::optional<std::wstring> name_on_volume(HANDLE h, const std::string& path) {
    std::vector<char> buffer(sizeof(FILE_NAME_INFO) + 65536);
    if (!GetFileInformationByHandleEx(h, FileNameInfo, buffer.data(), static_cast<DWORD>(buffer.size())))
        return std::nullopt;
    const auto* info = reinterpret_cast<const FILE_NAME_INFO*>(buffer.data());
    const std::wstring name(info->FileName, info->FileNameLength / sizeof(wchar_t));
    wchar_t volume[MAX_PATH + 1];
    if (!GetVolumePathNameW(system_path(path).c_str(), volume, MAX_PATH + 1)) return std::nullopt;
    std::wstring out = volume;
    while (!out.empty() && out.back() == L'\\') out.pop_back();
    return out + name;
}

std::optional<std::string> real_path(const std::string& path, int* err) {
    Handle h(open_path(path, false));
    if (!h.ok()) {
        if (err) *err = errno_of(GetLastError());
        return std::nullopt;
    }
    // Asked into a buffer, grown to what the call says it needs. Wine cannot name a path past
    // MAX_PATH this way (ERROR_MORE_DATA at any size): then the handle's name on its volume
    // (FileNameInfo) after the volume the path is on.
    std::wstring out(MAX_PATH + 1, L'\0');
    DWORD got = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
        got = GetFinalPathNameByHandleW(h.h, out.data(), static_cast<DWORD>(out.size()),
                                        FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
        if (got != 0 && got < out.size()) break;
        if (got == 0 && GetLastError() != ERROR_MORE_DATA) {
            if (err) *err = errno_of(GetLastError());
            return std::nullopt;
        }
        out.assign(got > out.size() ? got + 1 : 32768, L'\0');
        got = 0;
    }
    if (got == 0) {
        auto name = name_on_volume(h.h, path);
        if (!name) {
            if (err) *err = ENAMETOOLONG;
            return std::nullopt;
        }
        out = std::move(*name);
        got = static_cast<DWORD>(out.size());
    }
    out.resize(got);
    std::string real = normalize_separators(narrow(out));
    // A root keeps its separator ("C:/"); anything else has none at the end.
    if (real.size() > filesystem_root(real).size() && real.back() == '/') real.pop_back();
    return real;
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

std::string current_directory() {
    const DWORD n = GetCurrentDirectoryW(0, nullptr);
    std::wstring buffer(n, L'\0');
    const DWORD got = GetCurrentDirectoryW(n, buffer.data());
    buffer.resize(got);
    std::string dir = normalize_separators(narrow(buffer));
    return dir.empty() ? "C:/" : dir;
}

std::optional<std::string> executable_path() {
    std::wstring buffer(MAX_PATH, L'\0');
    for (int attempt = 0; attempt < 6; ++attempt) {  // up to 32 K characters, the longest path
        const DWORD got = GetModuleFileNameW(nullptr, buffer.data(), static_cast<DWORD>(buffer.size()));
        if (got == 0) return std::nullopt;
        if (got < buffer.size()) {
            buffer.resize(got);
            std::string path = narrow(buffer);
            if (path.rfind("\\\\?\\", 0) == 0 && path.size() > 6 && path[5] == ':') path.erase(0, 4);
            return path;
        }
        buffer.resize(buffer.size() * 2);
    }
    return std::nullopt;
}
}  // namespace platform
