// Normalised views with offset maps: the LF view of a file and the tolerant views built on it.
// Built in one pass each, copying only from the first byte that changes.
#include "text/match/normalized_view.hpp"

#include <algorithm>
#include <cstring>

#include "text/bytes/file_facts.hpp"
#include "text/unicode/typography.hpp"
#include "text/unicode/unicode_fold.hpp"

namespace text {

std::string normalize_newlines(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\r') {
            out += '\n';
            if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
        } else {
            out += s[i];
        }
    }
    return out;
}

LfView::LfView(std::string_view file_bytes) {
    detect_bom(file_bytes, &bom_size_);
    const std::string_view body = file_bytes.substr(bom_size_);
    const char* first_cr = static_cast<const char*>(std::memchr(body.data(), '\r', body.size()));
    if (!first_cr) {
        borrowed_ = body;
        return;
    }
    owned_ = true;
    storage_.reserve(body.size());
    std::size_t i = static_cast<std::size_t>(first_cr - body.data());
    storage_.append(body.data(), i);
    const std::size_t n = body.size();
    while (i < n) {
        // body[i] is a CR here.
        if (i + 1 < n && body[i + 1] == '\n') {
            collapsed_.push_back(storage_.size());
            i += 2;
        } else {
            ++i;
        }
        storage_ += '\n';
        const char* next = static_cast<const char*>(std::memchr(body.data() + i, '\r', n - i));
        const std::size_t stop = next ? static_cast<std::size_t>(next - body.data()) : n;
        storage_.append(body.data() + i, stop - i);
        i = stop;
    }
}

std::size_t LfView::to_source(std::size_t p) const {
    const auto before = std::lower_bound(collapsed_.begin(), collapsed_.end(), p) - collapsed_.begin();
    return bom_size_ + p + static_cast<std::size_t>(before);
}

std::optional<std::size_t> OffsetMap::to_source(std::size_t p) const {
    auto it = std::upper_bound(pieces_.begin(), pieces_.end(), p,
                               [](std::size_t v, const Piece& piece) { return v < piece.view; });
    if (it == pieces_.begin()) return p;
    const Piece& piece = *--it;
    if (p == piece.view) return piece.source;
    if (p < piece.view + piece.view_len) return std::nullopt;
    return piece.source + piece.source_len + (p - piece.view - piece.view_len);
}

std::size_t trimmed_end(std::string_view s, std::size_t b, std::size_t e, bool special_spaces) {
    while (e > b) {
        if (is_blank_byte(s[e - 1])) {
            --e;
            continue;
        }
        if (special_spaces && static_cast<unsigned char>(s[e - 1]) >= 0x80) {
            if (e - b >= 2) {
                const Typographic t = typographic_at(s, e - 2);
                if (t.size == 2 && t.is_space()) {
                    e -= 2;
                    continue;
                }
            }
            if (e - b >= 3) {
                const Typographic t = typographic_at(s, e - 3);
                if (t.size == 3 && t.is_space()) {
                    e -= 3;
                    continue;
                }
            }
        }
        break;
    }
    return e;
}

namespace {

// Applies `tol` to every line of `src`. Until the first change nothing is copied: `changed` stays
// false and the result is `src` itself. `map` (optional) receives the pieces.
struct Transformed {
    std::string text;
    bool changed = false;
    bool folded = false;
    bool last_line_stripped = false;
};

Transformed transform(std::string_view src, Tolerance tol, OffsetMap* map) {
    Transformed out;
    std::size_t view = 0;  // length of the view so far
    auto start_copy = [&](std::size_t src_pos) {
        if (out.changed) return;
        out.changed = true;
        out.text.reserve(src.size());
        out.text.assign(src.data(), src_pos);  // until now the view equals the source
    };
    auto keep = [&](std::size_t b, std::size_t e) {
        if (out.changed) out.text.append(src.data() + b, e - b);
        view += e - b;
    };
    const std::size_t n = src.size();
    std::size_t b = 0;
    while (b < n) {
        const char* nl = static_cast<const char*>(std::memchr(src.data() + b, '\n', n - b));
        const std::size_t e = nl ? static_cast<std::size_t>(nl - src.data()) : n;
        const std::size_t content_end = tol.strip_trailing_whitespace ? trimmed_end(src, b, e, tol.fold_typography) : e;
        std::size_t run = b;
        if (tol.fold_typography) {
            for (std::size_t i = b; i < content_end;) {
                // ASCII not followed by a possible combining mark is its own fold (the common case).
                if (static_cast<unsigned char>(src[i]) < 0x80 &&
                    (i + 1 >= content_end || static_cast<unsigned char>(src[i + 1]) < 0x80)) {
                    ++i;
                    continue;
                }
                const FoldedCluster c = fold_cluster_at(src, i, content_end);
                if (!c.changed) {
                    i += c.size;
                    continue;
                }
                keep(run, i);
                start_copy(i);
                if (map) {
                    map->add({view, i, static_cast<std::uint32_t>(c.text.size()), static_cast<std::uint32_t>(c.size)});
                }
                out.text.append(c.text);
                view += c.text.size();
                out.folded = true;
                i += c.size;
                run = i;
            }
        }
        keep(run, content_end);
        if (content_end < e) {
            start_copy(content_end);
            if (map) map->add({view, content_end, 0, static_cast<std::uint32_t>(e - content_end)});
            if (e == n) out.last_line_stripped = true;
        }
        if (e < n) keep(e, e + 1);
        b = e + 1;
    }
    return out;
}

}  // namespace

TolerantView::TolerantView(std::string_view source, Tolerance tolerance) {
    Transformed t = transform(source, tolerance, &map_);
    folded_ = t.folded;
    if (t.changed) {
        owned_ = true;
        storage_ = std::move(t.text);
    } else {
        borrowed_ = source;
    }
}

std::optional<std::size_t> TolerantView::to_source(std::size_t p) const {
    if (!owned_) return p;
    return map_.to_source(p);
}

TolerantText tolerant_text(std::string_view s, Tolerance tolerance) {
    Transformed t = transform(s, tolerance, nullptr);
    TolerantText out;
    out.text = t.changed ? std::move(t.text) : std::string(s);
    out.last_line_stripped = t.last_line_stripped;
    return out;
}

}  // namespace text
