// Encoding names, labels and declarations (see encoding_labels.hpp).
#include "text/bytes/encoding_labels.hpp"

#include "base/ascii.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace text {

namespace {

// The encodings converted. Shift_JIS is Windows' code page 932 (iconv's CP932): glibc's
// "SHIFT_JIS" reads 0x5C as YEN SIGN and 0x7E as OVERLINE, which would turn every backslash and
// tilde of a source file into another character. Big5 and EUC-KR are their Windows supersets, as
// the WHATWG Encoding Standard reads them. windows-1255 and windows-1258 are one byte a character
// but not converted byte by byte: glibc composes a letter and the combining mark after it
// ("A" 0xEC reads as "Á", written back as 0xC1), so they take the whole-text round trip.
constexpr std::array<EncodingInfo, 32> encodings{{
    {"utf-8", "UTF-8", 65001, false},
    {"utf-16le", "UTF-16LE", 1200, false},
    {"utf-16be", "UTF-16BE", 1201, false},
    {"iso-8859-1", "ISO-8859-1", 28591, true},
    {"iso-8859-2", "ISO-8859-2", 28592, true},
    {"iso-8859-4", "ISO-8859-4", 28594, true},
    {"iso-8859-5", "ISO-8859-5", 28595, true},
    {"iso-8859-7", "ISO-8859-7", 28597, true},
    {"iso-8859-8", "ISO-8859-8", 28598, true},
    {"iso-8859-9", "ISO-8859-9", 28599, true},
    {"iso-8859-13", "ISO-8859-13", 28603, true},
    {"iso-8859-15", "ISO-8859-15", 28605, true},
    {"windows-1250", "CP1250", 1250, true},
    {"windows-1251", "CP1251", 1251, true},
    {"windows-1252", "CP1252", 1252, true},
    {"windows-1253", "CP1253", 1253, true},
    {"windows-1254", "CP1254", 1254, true},
    {"windows-1255", "CP1255", 1255, false},
    {"windows-1256", "CP1256", 1256, true},
    {"windows-1257", "CP1257", 1257, true},
    {"windows-1258", "CP1258", 1258, false},
    {"windows-874", "CP874", 874, true},
    {"koi8-r", "KOI8-R", 20866, true},
    {"koi8-u", "KOI8-U", 21866, true},
    {"gbk", "GBK", 936, false},
    {"gb18030", "GB18030", 54936, false},
    {"big5", "CP950", 950, false},
    {"shift_jis", "CP932", 932, false},
    {"euc-jp", "EUC-JP", 20932, false},
    {"euc-kr", "CP949", 949, false},
    {"tis-620", "TIS-620", 874, true},
    {"us-ascii", "ASCII", 20127, true},
}};

// Labels (lower-case, '-', '_' and ' ' removed) for the names above, besides each name itself.
struct Alias {
    std::string_view label;
    std::string_view name;
};
constexpr std::array<Alias, 36> aliases{{
    {"utf8", "utf-8"},
    {"utf8bom", "utf-8"},
    {"utf8sig", "utf-8"},
    {"latin1", "iso-8859-1"},
    {"l1", "iso-8859-1"},
    {"iso88591", "iso-8859-1"},
    {"latin2", "iso-8859-2"},
    {"latin9", "iso-8859-15"},
    {"cyrillic", "iso-8859-5"},
    {"greek", "iso-8859-7"},
    {"hebrew", "iso-8859-8"},
    {"latin5", "iso-8859-9"},
    {"cp1250", "windows-1250"},
    {"cp1251", "windows-1251"},
    {"cp1252", "windows-1252"},
    {"cp1253", "windows-1253"},
    {"cp1254", "windows-1254"},
    {"cp1255", "windows-1255"},
    {"cp1256", "windows-1256"},
    {"cp1257", "windows-1257"},
    {"cp1258", "windows-1258"},
    {"cp874", "windows-874"},
    {"cp936", "gbk"},
    {"gb2312", "gbk"},
    {"euccn", "gbk"},
    {"cp950", "big5"},
    {"sjis", "shift_jis"},
    {"cp932", "shift_jis"},
    {"windows31j", "shift_jis"},
    {"mskanji", "shift_jis"},
    {"xsjis", "shift_jis"},
    {"ujis", "euc-jp"},
    {"cp949", "euc-kr"},
    {"ascii", "us-ascii"},
    {"usascii", "us-ascii"},
    {"ansix3.41968", "us-ascii"},
}};

std::string squeeze(std::string_view label) {
    std::string out;
    for (char c : label)
        if (c != '-' && c != '_' && c != ' ') out += base::ascii_lower(c);
    return out;
}

bool is_label_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == ':';
}

// The label starting at `at` (letters, digits, - _ . and : as in "ansi_x3.4-1968").
std::string label_at(std::string_view s, std::size_t at) {
    std::size_t end = at;
    while (end < s.size() && is_label_char(s[end])) ++end;
    while (end > at && (s[end - 1] == '.' || s[end - 1] == ':')) --end;  // "latin-1." at a sentence's end
    return std::string(s.substr(at, end - at));
}

std::size_t find_ci(std::string_view hay, std::string_view needle, std::size_t from = 0) {
    if (needle.empty() || hay.size() < needle.size()) return std::string_view::npos;
    for (std::size_t i = from; i + needle.size() <= hay.size(); ++i) {
        std::size_t k = 0;
        while (k < needle.size() && base::ascii_lower(hay[i + k]) == needle[k]) ++k;
        if (k == needle.size()) return i;
    }
    return std::string_view::npos;
}

// PEP 263's rule, widened to the other languages' comment markers: `coding[:=]` on a line whose
// text before it opens a comment (or Emacs' `-*-`).
std::optional<std::string> coding_in_line(std::string_view line) {
    for (std::size_t at = find_ci(line, "coding"); at != std::string_view::npos; at = find_ci(line, "coding", at + 1)) {
        std::size_t value = at + 6;
        if (value >= line.size() || (line[value] != ':' && line[value] != '=')) continue;
        ++value;
        while (value < line.size() && (line[value] == ' ' || line[value] == '\t')) ++value;
        const std::string_view before = line.substr(0, at);
        constexpr std::array<std::string_view, 9> openers{"#", "//", "/*", "--", ";", "%", "-*-", "<!--", "'"};
        const bool in_comment = std::any_of(openers.begin(), openers.end(), [&](std::string_view o) {
            return before.find(o) != std::string_view::npos;
        });
        if (!in_comment) continue;
        std::string label = label_at(line, value);
        if (!label.empty()) return label;
    }
    return std::nullopt;
}

// The value of attribute `name` inside `tag` (quoted with ' or ", or bare), or "".
std::string attribute(std::string_view tag, std::string_view name) {
    for (std::size_t at = find_ci(tag, name); at != std::string_view::npos; at = find_ci(tag, name, at + 1)) {
        if (at > 0 && is_label_char(tag[at - 1])) continue;  // "xencoding"
        std::size_t i = at + name.size();
        while (i < tag.size() && (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\n' || tag[i] == '\r')) ++i;
        if (i >= tag.size() || tag[i] != '=') continue;
        ++i;
        while (i < tag.size() && (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\n' || tag[i] == '\r')) ++i;
        if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) ++i;
        return label_at(tag, i);
    }
    return {};
}

}  // namespace

std::optional<EncodingInfo> find_encoding(std::string_view label) {
    const std::string key = squeeze(label);
    if (key.empty()) return std::nullopt;
    for (const auto& e : encodings)
        if (squeeze(e.name) == key) return e;
    for (const auto& a : aliases)
        if (a.label == key) return find_encoding(a.name);
    return std::nullopt;
}

std::optional<EncodingInfo> editorconfig_charset(std::string_view value) {
    const std::string key = squeeze(value);
    if (key == "latin1" || key == "utf8" || key == "utf8bom" || key == "utf16le" || key == "utf16be")
        return find_encoding(key);
    return std::nullopt;
}

std::optional<Declaration> find_declaration(std::string_view bytes) {
    // `<?xml version="1.0" encoding="X"?>` at the very start.
    if (bytes.substr(0, 5) == "<?xml") {
        const std::size_t end = bytes.find("?>");
        const std::string label = attribute(bytes.substr(0, end == std::string_view::npos ? 1024 : end), "encoding");
        if (!label.empty()) return Declaration{label, "<?xml encoding?>"};
    }
    // PEP 263: the first two lines.
    std::size_t begin = 0;
    for (int line = 1; line <= 2 && begin < bytes.size(); ++line) {
        std::size_t end = begin;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') ++end;
        if (auto label = coding_in_line(bytes.substr(begin, end - begin)))
            return Declaration{*label, "coding: line " + std::to_string(line)};
        begin = end;
        if (begin < bytes.size() && bytes[begin] == '\r') ++begin;
        if (begin < bytes.size() && bytes[begin] == '\n') ++begin;
    }
    // `<meta charset="X">` or `<meta http-equiv="Content-Type" content="text/html; charset=X">`.
    const std::string_view head = bytes.substr(0, 1024);
    for (std::size_t at = find_ci(head, "<meta"); at != std::string_view::npos; at = find_ci(head, "<meta", at + 1)) {
        const std::size_t end = head.find('>', at);
        const std::string_view tag = head.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        if (std::string label = attribute(tag, "charset"); !label.empty()) return Declaration{label, "<meta charset>"};
    }
    return std::nullopt;
}

std::size_t count_non_ascii(std::string_view bytes) {
    std::size_t n = 0;
    for (unsigned char c : bytes) n += c >> 7;
    return n;
}

std::size_t line_of_offset(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n')
            ++line;
        else if (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))
            ++line;
    }
    return line;
}

}  // namespace text
