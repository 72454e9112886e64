// Views of a file's text that the matcher searches (newlines read as "\n", trailing whitespace
// dropped, Unicode folded), each with a map back to the offsets it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/bytes/lines.hpp"

namespace text {

// `s` with CRLF and lone CR written as LF.
std::string normalize_newlines(std::string_view s);

// The file with its BOM removed and CRLF / CR read as "\n". No copy is made when the file has no
// CR (the view is then the file itself, shifted past the BOM).
class LfView {
public:
    explicit LfView(std::string_view file_bytes);

    std::string_view text() const { return owned_ ? std::string_view(storage_) : borrowed_; }
    // The file offset of view offset p (0 <= p <= text().size()). A "\n" that stands for "\r\n"
    // maps to its CR, and the offset after it to the byte after the LF.
    std::size_t to_source(std::size_t p) const;

private:
    std::string_view borrowed_;
    std::string storage_;
    bool owned_ = false;
    std::size_t bom_size_ = 0;
    std::vector<std::size_t> collapsed_;  // view offsets of the "\n"s that were "\r\n"
};

// A piecewise map from a transformed text back to its source: view [view, view+view_len) came from
// source [source, source+source_len). Offsets strictly inside such a piece have no source offset.
class OffsetMap {
public:
    struct Piece {
        std::size_t view = 0;
        std::size_t source = 0;
        std::uint32_t view_len = 0;
        std::uint32_t source_len = 0;
    };

    void add(const Piece& piece) { pieces_.push_back(piece); }
    bool empty() const { return pieces_.empty(); }
    std::optional<std::size_t> to_source(std::size_t p) const;

private:
    std::vector<Piece> pieces_;  // sorted by view, strictly increasing
};

struct Tolerance {
    bool strip_trailing_whitespace = false;  // spaces, tabs, \f, \v (and special spaces when folding)
    bool fold_typography = false;            // NFKC and typography read as ASCII: see unicode_fold.hpp
};

// A text (LF newlines) with the tolerance applied to every line; no copy when nothing changes.
class TolerantView {
public:
    TolerantView(std::string_view source, Tolerance tolerance);

    std::string_view text() const { return owned_ ? std::string_view(storage_) : borrowed_; }
    bool changed() const { return owned_; }
    bool folded() const { return folded_; }  // at least one typographic character was folded
    // The source offset of view offset p, or nullopt when p falls inside a folded character.
    std::optional<std::size_t> to_source(std::size_t p) const;

private:
    std::string_view borrowed_;
    std::string storage_;
    bool owned_ = false;
    bool folded_ = false;
    OffsetMap map_;
};

// The same transformation applied to a needle (no map needed). `last_line_stripped` says that the
// final line (the one no "\n" follows) lost trailing whitespace: a match must then end at a line end.
struct TolerantText {
    std::string text;
    bool last_line_stripped = false;
};
TolerantText tolerant_text(std::string_view s, Tolerance tolerance);

// The end of line s[b, e) once its trailing blanks (and, with special_spaces, the typographic
// spaces of typography.hpp) are dropped.
std::size_t trimmed_end(std::string_view s, std::size_t b, std::size_t e, bool special_spaces);

}  // namespace text
