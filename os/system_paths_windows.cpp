// Windows implementation of os/system_paths.hpp and os/error_text.hpp: drive-letter and UNC paths,
// `\\?\` prefixes, names compared without case as NTFS compares them, real paths from
// GetFinalPathNameByHandleW, %USERPROFILE%, the working directory and this executable.
#include "os/system_paths.hpp"

#include <windows.h>
#include <shlobj.h>

#include <cerrno>
#include <string>
#include <vector>

#include "os/error_text.hpp"
#include "os/windows_system.hpp"

namespace os {

using namespace win;

namespace {

bool drive_letter_at(std::string_view p) {
    return p.size() >= 2 && ((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) && p[1] == ':';
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

}  // namespace os
