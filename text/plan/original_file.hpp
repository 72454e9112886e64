// The file a patch is planned on, and the views of it the planner needs: its BOM, whether it ends
// with a newline, what the matcher searches, and its lines by number (built on first use).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/bytes/file_facts.hpp"

namespace text {

class OriginalFile {
public:
    explicit OriginalFile(std::string_view bytes) : bytes_(bytes) {
        detect_bom(bytes, &bom_);
        body_ = bytes.substr(bom_);
        final_newline_ = body_.empty() || body_.back() == '\n' || body_.back() == '\r';
        if (!final_newline_) {
            augmented_.reserve(bytes.size() + 1);
            augmented_.append(bytes);
            augmented_ += '\n';
        }
    }

    std::string_view bytes() const { return bytes_; }
    std::size_t bom() const { return bom_; }
    bool final_newline() const { return final_newline_; }
    // What the matcher searches: the bytes, with a "\n" after a last line that has none, so that
    // old lines (always ended by "\n") also match there.
    std::string_view haystack() const { return final_newline_ ? bytes_ : std::string_view(augmented_); }

    std::size_t line_count() { return lines().size(); }
    // Line n (1-based, 1..line_count) without its terminator.
    std::string_view line(std::size_t n) {
        const LineSpan& s = lines()[n - 1];
        return body_.substr(s.begin, s.end - s.begin);
    }
    // Offset in the bytes where line n starts; line_count()+1 is the end of the file.
    std::size_t line_begin(std::size_t n) {
        if (n <= 1) return bom_;
        if (n > line_count()) return bytes_.size();
        return bom_ + lines()[n - 1].begin;
    }
    // Offset in the bytes after line n's terminator.
    std::size_t line_end(std::size_t n) {
        if (n == 0) return bom_;
        if (n > line_count()) return bytes_.size();
        const LineSpan& s = lines()[n - 1];
        return bom_ + s.end + s.terminator_size;
    }

private:
    const std::vector<LineSpan>& lines() {
        if (!lines_) lines_ = split_lines(body_);
        return *lines_;
    }

    std::string_view bytes_;
    std::string_view body_;
    std::size_t bom_ = 0;
    bool final_newline_ = true;
    std::string augmented_;
    std::optional<std::vector<LineSpan>> lines_;
};

}  // namespace text
