// Windows implementation of os/scratch_files.hpp: a folder in the user's temp folder (whose default
// ACL admits only this user), files created new in it, removed again.
#include "os/scratch_files.hpp"

#include <windows.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "os/system_paths.hpp"
#include "os/windows_system.hpp"

namespace os {

using namespace win;

namespace {

// The suffix of a private folder's name: 10 letters and digits.
std::string private_folder_suffix() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string s;
    for (int i = 0; i < 10; ++i) s += alphabet[rng() % (sizeof alphabet - 1)];
    return s;
}

bool write_private_bytes(HANDLE h, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        DWORD wrote = 0;
        const DWORD part = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
        if (!WriteFile(h, bytes.data() + done, part, &wrote, nullptr)) return false;
        done += wrote;
    }
    return true;
}

}  // namespace

std::optional<std::string> make_private_directory(const std::string& prefix) {
    wchar_t temp[MAX_PATH + 1];
    const DWORD n = GetTempPathW(MAX_PATH + 1, temp);
    if (n == 0 || n > MAX_PATH) return std::nullopt;
    const std::string base = normalize_separators(narrow(std::wstring_view(temp, n)));
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string dir = (base.back() == '/' ? base : base + "/") + prefix + private_folder_suffix();
        // The default ACL of the user's temp folder already admits only this user (and admins).
        if (CreateDirectoryW(system_path(dir).c_str(), nullptr)) return dir;
        if (GetLastError() != ERROR_ALREADY_EXISTS) return std::nullopt;
    }
    return std::nullopt;
}

bool write_private_file(const std::string& path, std::string_view bytes) {
    Handle h(
        CreateFileW(system_path(path).c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!h.ok()) return false;
    const bool ok = write_private_bytes(h.h, bytes);
    CloseHandle(h.release());
    if (!ok) DeleteFileW(system_path(path).c_str());
    return ok;
}

bool remove_directory(const std::string& path) { return RemoveDirectoryW(system_path(path).c_str()) != 0; }

bool remove_private_directory(const std::string& path) {
    std::error_code error;
    std::filesystem::remove_all(std::filesystem::path(std::u8string(path.begin(), path.end())), error);
    return !error;
}

}  // namespace os
