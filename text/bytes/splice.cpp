// Splicing replacements, inserting lines and adapting whole contents to a file's conventions.
// Only the replaced or inserted bytes change; everything else is copied through untouched.
#include "text/bytes/splice.hpp"

#include <string>

#include "text/bytes/byte_buffer.hpp"

namespace text {

std::string with_newlines(std::string_view text, std::string_view newline) {
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            out += newline;
        } else if (c == '\r') {
            out += newline;
            if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
        } else {
            out += c;
        }
    }
    return out;
}

base::Result<std::string, SpliceError> splice(std::string_view bytes, std::span<const Replacement> replacements,
                                              std::string_view newline) {
    std::size_t previous_end = 0;
    std::size_t growth = 0;
    for (std::size_t i = 0; i < replacements.size(); ++i) {
        const Replacement& r = replacements[i];
        if (r.begin > r.end || r.end > bytes.size()) {
            return base::fail(SpliceError{"replacement " + std::to_string(i) + " [" + std::to_string(r.begin) + ", " +
                                          std::to_string(r.end) + ") is outside the file (" +
                                          std::to_string(bytes.size()) + " bytes)"});
        }
        if (i > 0 && r.begin < previous_end) {
            return base::fail(SpliceError{"replacement " + std::to_string(i) +
                                          " overlaps the one before it or is "
                                          "out of order"});
        }
        previous_end = r.end;
        growth += r.text.size();
    }
    std::string out;
    reserve_bytes(out, bytes.size() + growth + growth / 16);
    std::size_t at = 0;
    for (const Replacement& r : replacements) {
        out.append(bytes.data() + at, r.begin - at);
        out += with_newlines(r.text, newline);
        at = r.end;
    }
    out.append(bytes.data() + at, bytes.size() - at);
    return out;
}

base::Result<std::string, SpliceError> splice(std::string_view bytes, std::span<const Replacement> replacements) {
    return splice(bytes, replacements, dominant_newline(analyze(bytes)));
}

base::Result<Inserted, SpliceError> insert_lines(std::string_view bytes, long long line, std::string_view text) {
    if (line < -1) {
        return base::fail(
            SpliceError{"line must be 0 (before the first line), N (after line N) or -1 (at the end); got " +
                        std::to_string(line)});
    }
    const FileFacts facts = analyze(bytes);
    const std::string_view newline = dominant_newline(facts);
    const std::string_view body = bytes.substr(facts.bom_size);

    // Where line `line` ends (after its terminator), counting the lines on the way.
    std::size_t total = 0;
    std::size_t position = 0;  // offset in body
    bool last_has_terminator = true;
    const std::size_t wanted = line < 0 ? 0 : static_cast<std::size_t>(line);
    for_each_line(body, [&](const LineSpan& span) {
        ++total;
        if (line < 0 || total <= wanted) {
            position = span.end + span.terminator_size;
            last_has_terminator = span.terminator_size > 0;
        }
        return line < 0 || total < wanted;
    });
    if (line > 0 && total < wanted) {
        return base::fail(SpliceError{"line " + std::to_string(line) + " is past the end of the file, which has " +
                                      std::to_string(total) + (total == 1 ? " line" : " lines") + ". Use line " +
                                      std::to_string(total) + " or -1 to add at the end."});
    }
    if (line == 0) position = 0;
    if (line == 0 || total == 0) last_has_terminator = true;

    // The lines to insert, without one final newline.
    std::string_view lines = text;
    if (lines.size() >= 2 && lines.substr(lines.size() - 2) == "\r\n") {
        lines.remove_suffix(2);
    } else if (!lines.empty() && (lines.back() == '\n' || lines.back() == '\r')) {
        lines.remove_suffix(1);
    }
    std::size_t count = 1;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i] == '\n' || (lines[i] == '\r' && !(i + 1 < lines.size() && lines[i + 1] == '\n'))) ++count;
    }

    std::string inserted;
    if (!last_has_terminator) {
        // After the last line of a file that has no final newline: that line gets one, and the
        // inserted last line goes without, so the file still has no final newline.
        inserted += newline;
        inserted += with_newlines(lines, newline);
    } else {
        inserted += with_newlines(lines, newline);
        inserted += newline;
    }

    const std::size_t at = facts.bom_size + position;
    Inserted out;
    out.at = at;
    out.text = std::move(inserted);
    out.first_line = (line == 0 ? 0 : (line < 0 ? total : wanted)) + 1;
    out.line_count = count;
    return out;
}

AdaptedContent adapt_whole_content(std::string_view existing_bytes, std::string_view new_content) {
    const FileFacts old_facts = analyze(existing_bytes);
    const FileFacts new_facts = analyze(new_content);
    AdaptedContent out;
    std::string_view body = new_content;
    if (old_facts.bom == Bom::utf8 && new_facts.bom == Bom::none) {
        out.kept_bom = true;
        out.bytes = "\xEF\xBB\xBF";
    }
    const std::string_view newline = dominant_newline(old_facts);
    if (newline != "\n" && new_facts.line_ending == LineEnding::lf) {
        out.kept_line_ending = true;
        out.line_ending = newline == "\r\n" ? LineEnding::crlf : LineEnding::cr;
        out.bytes += with_newlines(body, newline);
    } else {
        out.bytes.append(body.data(), body.size());
    }
    if (out.kept_line_ending && out.kept_bom) {
        out.note = std::string("kept the file's ") + (out.line_ending == LineEnding::crlf ? "CRLF" : "CR") +
                   " line endings and UTF-8 BOM";
    } else if (out.kept_line_ending) {
        out.note =
            std::string("kept the file's ") + (out.line_ending == LineEnding::crlf ? "CRLF" : "CR") + " line endings";
    } else if (out.kept_bom) {
        out.note = "kept the file's UTF-8 BOM";
    }
    return out;
}

}  // namespace text
