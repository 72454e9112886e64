// text/unicode/unicode_normalization.hpp through Windows' National Language Support: NormalizeString
// (NormalizationKC, NormalizationKD), GetStringTypeW's character types and UTF-8 conversion with
// MB_ERR_INVALID_CHARS. Combining marks are read from CT_CTYPE3 (non-spacing, diacritic, vowel
// mark), which covers what utf8proc's combining class and grapheme-extend classes cover.
#include "text/unicode/unicode_normalization.hpp"

#include <windows.h>

namespace text::unicode {

namespace {

std::wstring utf16_of(char32_t cp) {
    if (cp < 0x10000) return std::wstring(1, static_cast<wchar_t>(cp));
    cp -= 0x10000;
    return {static_cast<wchar_t>(0xD800 + (cp >> 10)), static_cast<wchar_t>(0xDC00 + (cp & 0x3FF))};
}

std::optional<std::wstring> normalized(NORM_FORM form, const std::wstring& in) {
    int size = NormalizeString(form, in.data(), static_cast<int>(in.size()), nullptr, 0);
    for (int attempt = 0; attempt < 4 && size > 0; ++attempt) {
        std::wstring out(static_cast<std::size_t>(size), L'\0');
        const int n = NormalizeString(form, in.data(), static_cast<int>(in.size()), out.data(), size);
        if (n > 0) {
            out.resize(static_cast<std::size_t>(n));
            return out;
        }
        if (GetLastError() != ERROR_INSUFFICIENT_BUFFER) return std::nullopt;
        size = -n;  // the estimate it gives back
    }
    return std::nullopt;
}

}  // namespace

std::size_t decode(std::string_view s, std::size_t pos, std::size_t end, char32_t* cp) {
    const auto lead = static_cast<unsigned char>(s[pos]);
    const std::size_t size = lead < 0x80           ? 1
                             : (lead >> 5) == 0x6  ? 2
                             : (lead >> 4) == 0xE  ? 3
                             : (lead >> 3) == 0x1E ? 4
                                                   : 0;
    if (size == 0 || pos + size > end) return 0;
    wchar_t units[2];
    const int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s.data() + pos, static_cast<int>(size), units, 2);
    if (n == 1)
        *cp = units[0];
    else if (n == 2)
        *cp = 0x10000 + ((static_cast<char32_t>(units[0]) - 0xD800) << 10) + (static_cast<char32_t>(units[1]) - 0xDC00);
    else
        return 0;
    return size;
}

bool joins_previous(char32_t cp) {
    if ((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2)) return true;  // Hangul V and T jamo
    const std::wstring w = utf16_of(cp);
    WORD types[2] = {0, 0};
    if (!GetStringTypeW(CT_CTYPE3, w.data(), static_cast<int>(w.size()), types)) return false;
    return (types[0] & (C3_NONSPACING | C3_DIACRITIC | C3_VOWELMARK)) != 0;
}

bool has_decomposition(char32_t cp) {
    const std::wstring w = utf16_of(cp);
    const auto decomposed = normalized(NormalizationKD, w);
    return decomposed && *decomposed != w;
}

std::optional<std::string> nfkc(std::string_view cluster) {
    const int wide = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, cluster.data(),
                                         static_cast<int>(cluster.size()), nullptr, 0);
    if (wide <= 0) return std::nullopt;
    std::wstring in(static_cast<std::size_t>(wide), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, cluster.data(), static_cast<int>(cluster.size()), in.data(),
                        wide);
    const auto out = normalized(NormalizationKC, in);
    if (!out) return std::nullopt;
    const int n =
        WideCharToMultiByte(CP_UTF8, 0, out->data(), static_cast<int>(out->size()), nullptr, 0, nullptr, nullptr);
    std::string utf8(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, out->data(), static_cast<int>(out->size()), utf8.data(), n, nullptr, nullptr);
    return utf8;
}

}  // namespace text::unicode
