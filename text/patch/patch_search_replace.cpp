// The SEARCH/REPLACE reader: one pass over the lines with a four-state machine; every malformed
// block is reported with its line, the block it belongs to, and the format it should have.
#include "text/patch/patch_search_replace.hpp"

#include <optional>
#include <string>

#include "text/bytes/lines.hpp"
#include "text/patch/patch_text.hpp"

namespace text {

const char* const kSearchReplaceFormat =
    "Each block must look like this (:start_line: is optional, the line where the SEARCH text starts):\n"
    "<<<<<<< SEARCH\n"
    ":start_line:LINE\n"
    "-------\n"
    "[the exact lines to find, copied from the file]\n"
    "=======\n"
    "[the lines to put in their place]\n"
    ">>>>>>> REPLACE\n"
    "A content line that itself starts with <<<<<<<, =======, >>>>>>> or ------- is written with a "
    "backslash before it (\\=======).";

namespace {

enum class State { outside, header, search, replace };

bool is_search_marker(std::string_view line) {
    const std::string_view t = trim_right(line);
    return t == "<<<<<<< SEARCH" || t == "<<<<<<< SEARCH>";
}
bool is_separator(std::string_view line) { return trim_right(line) == "-------"; }
bool is_divider(std::string_view line) { return trim_right(line) == "======="; }
bool is_replace_marker(std::string_view line) { return trim_right(line) == ">>>>>>> REPLACE"; }

// ":start_line:" / ":end_line:" followed by the rest of the line.
bool has_key(std::string_view line, std::string_view key, std::string_view* rest) {
    if (!line.starts_with(key)) return false;
    *rest = trim_both(line.substr(key.size()));
    return true;
}

// A positive line number; nullopt for anything else (empty, signs, letters, overflow).
std::optional<std::size_t> parse_line_number(std::string_view digits) {
    if (digits.empty() || digits.size() > 12) return std::nullopt;
    std::size_t n = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + static_cast<std::size_t>(c - '0');
    }
    if (n == 0) return std::nullopt;
    return n;
}

std::string_view unescape(std::string_view line) {
    if (line.empty() || line[0] != '\\') return line;
    const std::string_view rest = line.substr(1);
    for (const std::string_view marker : {"<<<<<<<", "=======", ">>>>>>>", "-------", ":start_line:", ":end_line:"}) {
        if (rest.starts_with(marker)) return rest;
    }
    return line;
}

class SearchReplaceReader {
public:
    explicit SearchReplaceReader(std::string_view patch) : text_(patch) {}

    base::Result<Patch, PatchError> run() {
        FilePatch file;
        file.action = FileAction::update;
        file.patch_line = 1;
        for (std::size_t i = 0; i < text_.size(); ++i) {
            const std::string_view line = text_.line(i);
            const std::size_t n = PatchText::number(i);
            switch (state_) {
                case State::outside:
                    if (is_search_marker(line)) {
                        begin_block(n);
                    } else if (is_divider(line) || is_replace_marker(line)) {
                        return malformed_.fail(
                            n, "found " + quote_patch_line(trim_right(line)) +
                                   " outside a block: a block must start with \"<<<<<<< SEARCH\" before "
                                   "its \"=======\" and \">>>>>>> REPLACE\".");
                    }
                    break;
                case State::header: {
                    std::string_view rest;
                    if (has_key(line, ":start_line:", &rest) || has_key(line, ":end_line:", &rest)) {
                        const bool start = line.starts_with(":start_line:");
                        const std::optional<std::size_t> number = parse_line_number(rest);
                        if (!number) {
                            return malformed_.fail(n, quote_patch_line(line) +
                                                          " must give a line number of 1 or more, as in "
                                                          "\":start_line:12\".");
                        }
                        std::optional<std::size_t>& slot = start ? block_.start_line : block_.end_line;
                        if (slot) {
                            return malformed_.fail(n, "the block that starts at line " + std::to_string(block_line_) +
                                                          " gives " + (start ? ":start_line:" : ":end_line:") +
                                                          " twice.");
                        }
                        slot = number;
                        break;
                    }
                    if (is_separator(line)) {
                        state_ = State::search;
                        break;
                    }
                    state_ = State::search;  // the older format: content follows SEARCH directly
                    if (auto r = search_line(line, n); !r.ok()) return base::fail(std::move(r.error()));
                    break;
                }
                case State::search:
                    if (auto r = search_line(line, n); !r.ok()) return base::fail(std::move(r.error()));
                    break;
                case State::replace:
                    if (is_replace_marker(line)) {
                        end_block(file);
                    } else if (is_divider(line)) {
                        return malformed_.fail(
                            n, "a second \"=======\" in the block that starts at line " + std::to_string(block_line_) +
                                   " (its first is at line " + std::to_string(divider_line_) +
                                   "). If the REPLACE text contains a line \"=======\", write it as "
                                   "\"\\=======\"; otherwise end the block with \">>>>>>> REPLACE\" first.");
                    } else if (is_search_marker(line)) {
                        return malformed_.fail(n, "\"<<<<<<< SEARCH\" inside the block that starts at line " +
                                                      std::to_string(block_line_) +
                                                      ": that block is missing its \">>>>>>> REPLACE\" line.");
                    } else {
                        append(replace_lines_, line);
                    }
                    break;
            }
        }
        switch (state_) {
            case State::outside: break;
            case State::header:
            case State::search:
                return malformed_.fail(block_line_, "the block that starts at line " + std::to_string(block_line_) +
                                                        " has no \"=======\" and no \">>>>>>> REPLACE\": the diff ends "
                                                        "inside its SEARCH part.");
            case State::replace:
                return malformed_.fail(block_line_, "the block that starts at line " + std::to_string(block_line_) +
                                                        " has no \">>>>>>> REPLACE\": the diff ends inside its REPLACE "
                                                        "part (after the \"=======\" at line " +
                                                        std::to_string(divider_line_) + ").");
        }
        if (file.blocks.empty()) {
            return malformed_.fail(0,
                                   "the diff holds no SEARCH/REPLACE block (none of its lines is \"<<<<<<< SEARCH\").");
        }
        Patch patch;
        patch.format = PatchFormat::search_replace;
        patch.block_count = file.blocks.size();
        patch.files.push_back(std::move(file));
        return patch;
    }

private:
    base::Result<bool, PatchError> search_line(std::string_view line, std::size_t n) {
        if (is_divider(line)) {
            if (!has_visible_text(search_lines_)) {
                return malformed_.fail(n, "the SEARCH part of the block that starts at line " +
                                              std::to_string(block_line_) +
                                              " is empty. SEARCH must hold the exact lines to replace, copied "
                                              "from the file; to add lines, put a neighbouring line in SEARCH and "
                                              "again in REPLACE next to the new ones.");
            }
            state_ = State::replace;
            divider_line_ = n;
            return true;
        }
        if (is_replace_marker(line)) {
            return malformed_.fail(n, "\">>>>>>> REPLACE\" before the \"=======\" of the block that starts at line " +
                                          std::to_string(block_line_) +
                                          ": the SEARCH and REPLACE parts must be separated by a line "
                                          "\"=======\".");
        }
        if (is_search_marker(line)) {
            return malformed_.fail(n, "\"<<<<<<< SEARCH\" inside the block that starts at line " +
                                          std::to_string(block_line_) +
                                          ": that block is missing its \"=======\" and \">>>>>>> REPLACE\" lines.");
        }
        std::string_view rest;
        if (search_lines_.empty() && (has_key(line, ":start_line:", &rest) || has_key(line, ":end_line:", &rest))) {
            return malformed_.fail(n, quote_patch_line(line) +
                                          " comes after the \"-------\" of the block that starts "
                                          "at line " +
                                          std::to_string(block_line_) +
                                          ": :start_line: and :end_line: go right after \"<<<<<<< SEARCH\", before "
                                          "\"-------\" (or write \"\\" +
                                          std::string(trim_right(line)) + "\" if it is text of the file).");
        }
        append(search_lines_, line);
        return true;
    }

    void begin_block(std::size_t n) {
        state_ = State::header;
        block_ = PatchBlock{};
        block_line_ = n;
        search_lines_.clear();
        replace_lines_.clear();
    }

    void append(std::string& lines, std::string_view line) {
        lines.append(unescape(line));
        lines += '\n';
    }

    void end_block(FilePatch& file) {
        block_.index = file.blocks.size() + 1;
        block_.patch_line = block_line_;
        block_.old_text = std::move(search_lines_);
        block_.new_text = std::move(replace_lines_);
        file.blocks.push_back(std::move(block_));
        search_lines_.clear();
        replace_lines_.clear();
        state_ = State::outside;
    }

    const MalformedPatch malformed_{"SEARCH/REPLACE diff", kSearchReplaceFormat};
    PatchText text_;
    State state_ = State::outside;
    PatchBlock block_;
    std::size_t block_line_ = 0;
    std::size_t divider_line_ = 0;
    std::string search_lines_;
    std::string replace_lines_;
};

}  // namespace

base::Result<Patch, PatchError> parse_search_replace(std::string_view patch) {
    SearchReplaceReader reader(patch);
    return reader.run();
}

}  // namespace text
