// editorconfig_library_path on Windows: libeditorconfig opens each .editorconfig with fopen, which
// takes a path in the ANSI code page, and it tests a path for being absolute with PathIsRelative,
// which knows "C:/" and a leading backslash but not "//server/share/". So the UTF-8 real path is
// spelled in the ANSI code page and with backslashes (the library turns them back into slashes).
#include "os/editorconfig.hpp"

#include <algorithm>

#include "os/windows_system.hpp"

namespace os {

std::optional<std::string> editorconfig_library_path(const std::string& real_path) {
    std::string out;
    const UINT code_page = GetACP();
    const bool ascii =
        std::all_of(real_path.begin(), real_path.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii || code_page == CP_UTF8) {
        out = real_path;
    } else {
        const std::wstring wide = win::widen(real_path);
        BOOL lost = FALSE;
        const int size = WideCharToMultiByte(code_page, WC_NO_BEST_FIT_CHARS, wide.data(),
                                             static_cast<int>(wide.size()), nullptr, 0, nullptr, &lost);
        if (size <= 0 || lost) return std::nullopt;
        out.resize(static_cast<std::size_t>(size));
        if (WideCharToMultiByte(code_page, WC_NO_BEST_FIT_CHARS, wide.data(), static_cast<int>(wide.size()), out.data(),
                                size, nullptr, &lost) != size ||
            lost)
            return std::nullopt;
        // A real path has no backslash; one here is the second byte of a double-byte character,
        // which the library would turn into a slash.
        if (out.find('\\') != std::string::npos) return std::nullopt;
    }
    std::replace(out.begin(), out.end(), '/', '\\');
    return out;
}

}  // namespace os
