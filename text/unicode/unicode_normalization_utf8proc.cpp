// text/unicode/unicode_normalization.hpp through utf8proc (Debian libutf8proc-dev).
#include "text/unicode/unicode_normalization.hpp"

#include <array>

#include <utf8proc.h>

namespace text::unicode {

std::size_t decode(std::string_view s, std::size_t pos, std::size_t end, char32_t* cp) {
    utf8proc_int32_t value = 0;
    const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data() + pos);
    const utf8proc_ssize_t n = utf8proc_iterate(p, static_cast<utf8proc_ssize_t>(end - pos), &value);
    if (n <= 0) return 0;
    *cp = static_cast<char32_t>(value);
    return static_cast<std::size_t>(n);
}

bool joins_previous(char32_t cp) {
    if ((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 && cp <= 0x11C2)) return true;  // Hangul V and T jamo
    const utf8proc_property_t* prop = utf8proc_get_property(static_cast<utf8proc_int32_t>(cp));
    return prop->combining_class != 0 || prop->boundclass == UTF8PROC_BOUNDCLASS_EXTEND ||
           prop->boundclass == UTF8PROC_BOUNDCLASS_SPACINGMARK;
}

bool has_decomposition(char32_t cp) {
    return utf8proc_get_property(static_cast<utf8proc_int32_t>(cp))->decomp_seqindex != UINT16_MAX;
}

std::optional<std::string> nfkc(std::string_view cluster) {
    std::array<utf8proc_int32_t, 4 * max_cluster_code_points> buffer{};
    constexpr auto options = static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
    const utf8proc_ssize_t decomposed = utf8proc_decompose(reinterpret_cast<const utf8proc_uint8_t*>(cluster.data()),
                                                           static_cast<utf8proc_ssize_t>(cluster.size()), buffer.data(),
                                                           static_cast<utf8proc_ssize_t>(buffer.size()), options);
    if (decomposed <= 0 || static_cast<std::size_t>(decomposed) > buffer.size()) return std::nullopt;
    const utf8proc_ssize_t length = utf8proc_normalize_utf32(buffer.data(), decomposed, options);
    if (length < 0) return std::nullopt;
    std::string out;
    for (utf8proc_ssize_t i = 0; i < length; ++i) {
        utf8proc_uint8_t bytes[4];
        const utf8proc_ssize_t n = utf8proc_encode_char(buffer[static_cast<std::size_t>(i)], bytes);
        out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
    }
    return out;
}

}  // namespace text::unicode
