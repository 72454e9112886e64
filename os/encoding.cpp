// Deciding a file's encoding and converting its text (see encoding.hpp for the decision and the
// platforms): the portable part, over os/encoding_conversion and os/encoding_detection.
#include "os/encoding.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "os/encoding_conversion.hpp"
#include "os/encoding_detection.hpp"
#include "text/bytes/encoding_labels.hpp"
#include "text/bytes/file_facts.hpp"

namespace os {

namespace {

// Detection's thresholds, measured on real text (gettext catalogues of apt, bash, coreutils and tar
// in zh_CN, ja, de, fr, ru, converted, mixed into ASCII source lines; docs/encodings.md): with
// fewer non-ASCII bytes uchardet's answer was wrong or empty too often to show the model.
constexpr std::size_t min_detect_bytes = 16;
constexpr std::size_t sure_detect_bytes = 32;
constexpr double confidence_few = 0.90;   // 16-31 non-ASCII bytes: worst language right 91%
constexpr double confidence_many = 0.96;  // 32 or more: worst language right 96%
// The detector reads 64 KiB from a little before the first non-ASCII byte: on 50 MB of cp1252 it
// took 3.8 ms for 64 KiB and 120 ms for 1 MiB, with the same answer.
constexpr std::size_t detection_window = std::size_t{64} << 10;
constexpr std::size_t detection_lead = 1024;

std::string hex_bytes(std::string_view bytes) {
    std::string out;
    for (unsigned char c : bytes) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%s0x%02X", out.empty() ? "" : " ", c);
        out += buf;
    }
    return out;
}

std::size_t utf8_length(unsigned char lead) {
    if (lead < 0x80) return 1;
    if ((lead & 0xE0) == 0xC0) return 2;
    if ((lead & 0xF0) == 0xE0) return 3;
    if ((lead & 0xF8) == 0xF0) return 4;
    return 1;
}

std::string code_point(std::string_view ch) {
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(ch[i]); };
    unsigned cp = b(0);
    if (ch.size() == 2) cp = ((b(0) & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    if (ch.size() == 3) cp = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    if (ch.size() == 4) cp = ((b(0) & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", cp);
    return buf;
}

ConversionError unknown_encoding(std::string_view encoding) {
    ConversionError e;
    e.message = "the encoding '" + std::string(encoding) + "' is not one the server converts";
    return e;
}

// A single-byte encoding as a table, made once per encoding from the platform's converter: what
// each byte reads as, and whether that character is written back as the same byte. A file in it
// round-trips exactly when each of its bytes does, so reading one costs a table look-up a byte
// instead of a decode and an encode through iconv (50 MB of cp1252: 1 pass instead of 3).
struct SingleByteTable {
    std::array<std::array<char, 4>, 256> utf8{};  // each byte's character, UTF-8
    std::array<std::uint8_t, 256> size{};         // its length; 0: no character
    std::array<bool, 256> round_trips{};
};

const SingleByteTable& single_byte_table(const text::EncodingInfo& info) {
    static std::mutex mutex;
    static std::map<std::string_view, std::unique_ptr<SingleByteTable>> tables;
    std::lock_guard lock(mutex);
    auto& table = tables[info.name];
    if (!table) {
        table = std::make_unique<SingleByteTable>();
        for (unsigned b = 0; b < 256; ++b) {
            const std::string byte(1, static_cast<char>(b));
            auto utf8 = conversion::to_utf8(byte, info);
            if (!utf8 || utf8->empty() || utf8->size() > 4) continue;
            auto back = conversion::from_utf8(*utf8, info);
            std::memcpy(table->utf8[b].data(), utf8->data(), utf8->size());
            table->size[b] = static_cast<std::uint8_t>(utf8->size());
            table->round_trips[b] = back && *back == byte;
        }
    }
    return *table;
}

// `bytes` through `table`: the text, or the offset of the first byte that is no character.
// `one_way` (when given) gets the offset of the first byte that would not be written back as
// itself, or npos. Every encoding of the table is ASCII-compatible: ASCII runs are copied whole.
base::Result<std::string, conversion::Stop> decode_single_byte(std::string_view bytes, const SingleByteTable& table,
                                                               std::size_t* one_way = nullptr) {
    if (one_way) *one_way = std::string_view::npos;
    std::string out(bytes.size() + bytes.size() / 2 + 16, '\0');
    std::size_t used = 0;
    for (std::size_t i = 0; i < bytes.size();) {
        std::size_t run = i;
        while (run + 8 <= bytes.size()) {
            std::uint64_t w;
            std::memcpy(&w, bytes.data() + run, 8);
            if (w & 0x8080808080808080ull) break;
            run += 8;
        }
        while (run < bytes.size() && static_cast<unsigned char>(bytes[run]) < 0x80) ++run;
        if (used + (run - i) + 4 > out.size()) out.resize(std::max(out.size() * 2, used + (run - i) + 4));
        std::memcpy(out.data() + used, bytes.data() + i, run - i);
        used += run - i;
        i = run;
        if (i == bytes.size()) break;
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (table.size[c] == 0) return base::fail(conversion::Stop{i});
        if (one_way && !table.round_trips[c] && *one_way == std::string_view::npos) *one_way = i;
        std::memcpy(out.data() + used, table.utf8[c].data(), 4);
        used += table.size[c];
        ++i;
    }
    out.resize(used);
    return out;
}

base::Result<std::string, conversion::Stop> to_utf8(std::string_view bytes, const text::EncodingInfo& info) {
    if (info.single_byte) return decode_single_byte(bytes, single_byte_table(info));
    return conversion::to_utf8(bytes, info);
}

// The decision's attempt at one encoding: lossless, with the text, or the reason it is not.
struct EncodingAttempt {
    bool lossless = false;
    std::string text;
    std::string reason;
};

EncodingAttempt attempt_encoding(std::string_view body, const text::EncodingInfo& info) {
    EncodingAttempt a;
    if (info.name == "utf-8") {
        a.lossless = text::is_valid_utf8(body);
        if (!a.lossless) {
            const auto bad = text::invalid_utf8_bytes(body);
            a.reason = "line " + std::to_string(text::line_of_offset(body, bad.front())) + " has byte " +
                       hex_bytes(body.substr(bad.front(), 1)) + ", which is not UTF-8";
        }
        return a;
    }
    if (info.single_byte) {
        std::size_t one_way = std::string_view::npos;
        auto decoded = decode_single_byte(body, single_byte_table(info), &one_way);
        if (!decoded) {
            a.reason = decode(body, info.name).error().message;
        } else if (one_way != std::string_view::npos) {
            a.reason = "its bytes do not come back the same through " + std::string(info.name) +
                       " (first difference at byte " + std::to_string(one_way) + ")";
        } else {
            a.lossless = true;
            a.text = std::move(*decoded);
        }
        return a;
    }
    auto decoded = decode(body, info.name);
    if (!decoded) {
        a.reason = decoded.error().message;
        return a;
    }
    auto encoded = conversion::from_utf8(*decoded, info);
    if (!encoded || *encoded != body) {
        const std::string_view back = encoded ? std::string_view(*encoded) : std::string_view();
        const auto diff = std::mismatch(body.begin(), body.end(), back.begin(), back.end()).first - body.begin();
        a.reason = "its bytes do not come back the same through " + std::string(info.name) +
                   " (first difference at byte " + std::to_string(diff) + ")";
        return a;
    }
    a.lossless = true;
    a.text = std::move(*decoded);
    return a;
}

void append_note(std::string& note, std::string_view line) {
    if (!note.empty()) note += "; ";
    note += line;
}

}  // namespace

const char* to_string(EncodingSource source) {
    switch (source) {
        case EncodingSource::bom: return "bom";
        case EncodingSource::requested: return "requested";
        case EncodingSource::declaration: return "declaration";
        case EncodingSource::editorconfig: return "editorconfig";
        case EncodingSource::utf8: return "utf-8";
        case EncodingSource::detected: return "detected";
        case EncodingSource::fallback: break;
    }
    return "fallback";
}

EncodingDecision decide_encoding(std::string_view bytes, const EncodingHints& hints) {
    EncodingDecision d;
    const text::Bom bom = text::detect_bom(bytes, &d.bom_size);
    const std::string_view body = bytes.substr(d.bom_size);

    // Takes `info` when the bytes round-trip through it; otherwise notes why not.
    auto take = [&](const text::EncodingInfo& info, EncodingSource source, std::string detail,
                    std::string_view passed_over) {
        EncodingAttempt a = attempt_encoding(body, info);
        if (!a.lossless) {
            append_note(d.note, std::string(passed_over) + " " + std::string(info.name) + ", but " + a.reason);
            return false;
        }
        d.encoding = std::string(info.name);
        d.source = source;
        d.lossless = true;
        d.text = std::move(a.text);
        d.how = d.encoding + " (" + detail + ")";
        return true;
    };
    auto fallback = [&]() {
        d.encoding = std::string(unknown_8bit);
        d.source = EncodingSource::fallback;
        d.lossless = false;
        d.confidence = 1.0;
        d.text.clear();
        d.how = d.encoding + " (no encoding fits: the raw bytes are kept)";
        return d;
    };

    switch (bom) {
        case text::Bom::utf32le:
        case text::Bom::utf32be:
            d.encoding = bom == text::Bom::utf32le ? "utf-32le" : "utf-32be";
            d.source = EncodingSource::bom;
            d.how = d.encoding + " (bom)";
            d.note = "UTF-32 files are not supported";
            return d;
        case text::Bom::utf8:
        case text::Bom::utf16le:
        case text::Bom::utf16be:
            if (take(*text::find_encoding(text::to_string(bom)), EncodingSource::bom, "bom", "the BOM says")) return d;
            return fallback();
        case text::Bom::none: break;
    }

    // The encoding the model named for this file, when its bytes fit it.
    if (!hints.requested.empty()) {
        if (const auto info = text::find_encoding(hints.requested);
            info && (info->name == "utf-16le" || info->name == "utf-16be")) {
            // Bytes without NULs are not UTF-16 text, whatever they decode to.
            append_note(d.note, "UTF-16 is read from a file's BOM, and this file has none");
        } else if (info) {
            if (take(*info, EncodingSource::requested, "requested", "asked to read it as")) return d;
        } else {
            append_note(d.note, "'" + hints.requested + "' is not an encoding this server converts");
        }
    }
    // Bytes that are valid UTF-8 and not all ASCII are UTF-8 whatever a declaration or the project
    // says: legacy text almost never forms valid multi-byte UTF-8, and a stale `coding: latin-1`
    // over UTF-8 text would show the model mojibake (and write its new text in another encoding
    // than the rest). Pure ASCII reads the same in every encoding here: there the declared one
    // decides how new text is written.
    const bool ascii_only =
        std::none_of(body.begin(), body.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    const bool utf8_text = !ascii_only && text::is_valid_utf8(body);
    auto passed_over_for_utf8 = [&](std::string_view who, std::string_view label) {
        append_note(d.note, std::string(who) + " " + std::string(label) +
                                ", but its bytes are UTF-8 (valid, and not all ASCII): read as UTF-8");
    };
    if (const auto declared = text::find_declaration(body); declared && utf8_text) {
        const auto info = text::find_encoding(declared->label);
        if (!info || info->name != "utf-8") passed_over_for_utf8("the file declares", declared->label);
    } else if (declared) {
        if (const auto info = text::find_encoding(declared->label)) {
            if (take(*info, EncodingSource::declaration, "declaration: " + declared->where, "the file declares"))
                return d;
        } else {
            append_note(d.note, "the file declares '" + declared->label + "' (" + declared->where +
                                    "), which is not converted");
        }
    }
    if (!hints.editorconfig_charset.empty() && utf8_text) {
        const auto info = text::editorconfig_charset(hints.editorconfig_charset);
        if (!info || info->name != "utf-8")
            passed_over_for_utf8(".editorconfig says charset =", hints.editorconfig_charset);
    } else if (!hints.editorconfig_charset.empty()) {
        if (const auto info = text::editorconfig_charset(hints.editorconfig_charset)) {
            if (take(*info, EncodingSource::editorconfig, "editorconfig: charset = " + hints.editorconfig_charset,
                     ".editorconfig says"))
                return d;
        } else {
            append_note(d.note,
                        ".editorconfig's charset '" + hints.editorconfig_charset + "' is not an EditorConfig charset");
        }
    }
    if (ascii_only || utf8_text) {
        d.encoding = "utf-8";
        d.source = EncodingSource::utf8;
        d.lossless = true;
        d.how = "utf-8 (valid UTF-8)";
        return d;
    }

    // What the detector sees is what its confidence is measured on.
    const auto first_non_ascii =
        std::find_if(body.begin(), body.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    const std::size_t from = static_cast<std::size_t>(first_non_ascii - body.begin());
    const std::string_view window = body.substr(from - std::min(from, detection_lead), detection_window);
    const std::size_t non_ascii = text::count_non_ascii(window);
    if (non_ascii < min_detect_bytes) {
        append_note(d.note, std::to_string(non_ascii) + " non-ASCII bytes are too few to detect an encoding from (" +
                                std::to_string(min_detect_bytes) + " needed)");
        return fallback();
    }
    // UTF-8 with a few stray bytes (a Latin-1 byte pasted into UTF-8 text): nine in ten of its
    // non-ASCII bytes form UTF-8 characters. Read in a legacy encoding, all its UTF-8 text would
    // show as mojibake; kept as raw bytes, it reads as UTF-8 with a U+FFFD for each stray byte.
    if (const std::size_t stray = text::invalid_utf8_bytes(window).size(); stray * 10 <= non_ascii) {
        append_note(d.note, "its bytes are UTF-8 but for " + std::to_string(stray) + " that are not");
        return fallback();
    }
    const std::string detected = detect_charset(window);
    const auto info = text::find_encoding(detected);
    if (!info || info->name == "utf-8") {
        append_note(d.note, detected.empty() ? std::string("the detector found no encoding")
                                             : "the detector's answer '" + detected + "' is not converted");
        return fallback();
    }
    const double confidence = non_ascii >= sure_detect_bytes ? confidence_many : confidence_few;
    char buf[32];
    std::snprintf(buf, sizeof buf, "detected, confidence %.2f", confidence);
    // GBK before GB18030 (new text then cannot take GB18030's four-byte forms unnoticed);
    // windows-1252 before ISO-8859-1 when bytes 0x80-0x9F (C1 controls in Latin-1) are there.
    std::vector<text::EncodingInfo> candidates;
    if (info->name == "gb18030") candidates.push_back(*text::find_encoding("gbk"));
    if (info->name == "iso-8859-1" && std::any_of(body.begin(), body.end(), [](char c) {
            return static_cast<unsigned char>(c) >= 0x80 && static_cast<unsigned char>(c) <= 0x9F;
        }))
        candidates.push_back(*text::find_encoding("windows-1252"));
    candidates.push_back(*info);
    for (const auto& candidate : candidates) {
        std::string note_before = d.note;
        if (take(candidate, EncodingSource::detected, buf, "the detector says")) {
            d.confidence = confidence;
            d.note = std::move(note_before);  // a preferred candidate that did not fit is no news
            return d;
        }
    }
    return fallback();
}

base::Result<std::string, ConversionError> decode(std::string_view bytes, std::string_view encoding) {
    const auto info = text::find_encoding(encoding);
    if (!info) return base::fail(unknown_encoding(encoding));
    if (info->name == "utf-8") {
        if (text::is_valid_utf8(bytes)) return std::string(bytes);
    } else if (auto out = to_utf8(bytes, *info)) {
        return std::move(*out);
    }
    // Where it stopped: the first byte no character of the encoding starts with.
    std::size_t offset = 0;
    if (info->name == "utf-8") {
        offset = text::invalid_utf8_bytes(bytes).front();
    } else {
        offset = to_utf8(bytes, *info).error().offset;
    }
    ConversionError e;
    e.offset = offset;
    // The line, counted in the text before it (UTF-16's newlines are not bytes 0x0A).
    auto before = info->name == "utf-8"
                      ? base::Result<std::string, conversion::Stop>(std::string(bytes.substr(0, offset)))
                      : to_utf8(bytes.substr(0, offset), *info);
    e.line = before ? text::line_of_offset(*before, before->size()) : 1;
    e.character = hex_bytes(bytes.substr(offset, info->single_byte || info->name == "utf-8" ? 1 : 2));
    e.message = "line " + std::to_string(e.line) + ": " + (e.character.size() > 4 ? "bytes " : "byte ") + e.character +
                (e.character.size() > 4 ? " are" : " is") + " not a " + std::string(info->name) + " character";
    return base::fail(std::move(e));
}

base::Result<std::string, ConversionError> encode(std::string_view utf8, std::string_view encoding) {
    const auto info = text::find_encoding(encoding);
    if (!info) return base::fail(unknown_encoding(encoding));
    ConversionError e;
    if (!text::is_valid_utf8(utf8)) {
        e.offset = text::invalid_utf8_bytes(utf8).front();
        e.line = text::line_of_offset(utf8, e.offset);
        e.character = hex_bytes(utf8.substr(e.offset, 1));
        e.message = "line " + std::to_string(e.line) + ": byte " + e.character + " is not valid UTF-8";
        return base::fail(std::move(e));
    }
    if (info->name == "utf-8") return std::string(utf8);
    auto out = conversion::from_utf8(utf8, *info);
    if (out) return std::move(*out);
    e.offset = out.error().offset;
    e.line = text::line_of_offset(utf8, e.offset);
    e.character = std::string(
        utf8.substr(e.offset, utf8_length(static_cast<unsigned char>(utf8[std::min(e.offset, utf8.size() - 1)]))));
    e.message = "line " + std::to_string(e.line) + ": '" + e.character + "' (" + code_point(e.character) +
                ") cannot be written in " + std::string(info->name);
    return base::fail(std::move(e));
}

}  // namespace os
