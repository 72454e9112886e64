// A block laid onto the file line by line rather than as one run of lines: each old line is given
// the file line it stands for, file lines in between that the block does not mention stay where
// they are, and the change is written around them. For hunks a context line short, and for
// similarity matching (which must never delete or duplicate a line the block did not mention).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "text/plan/original_file.hpp"

namespace text {

// For each old line of a block, the 1-based file line it stands for (0: none, for a context line
// that similarity matching found nowhere). Increasing where not 0.
struct LineAlignment {
    std::vector<std::size_t> file_line;
    std::size_t first() const;  // the first file line used (0 when none)
    std::size_t last() const;   // the last one
};

// The lines a block is made of ("\n" ends each, also the last).
std::vector<std::string_view> block_lines(std::string_view block_text);

// Every place where the old lines are, in order and equal apart from trailing blanks, with between
// 1 and `max_gap` file lines in all between them that they do not mention (a hunk that left out a
// context line or two). The first and last old lines are at the ends of each place. At most
// `limit` places are returned (more means "many").
std::vector<LineAlignment> gap_alignments(OriginalFile& file, const std::vector<std::string_view>& old_lines,
                                          std::size_t max_gap, std::size_t limit);

// The old lines laid onto file lines [first, last] by line similarity (Levenshtein), each at most
// once and in order, maximizing the total similarity; an old line less than `min_line_similarity`
// like every candidate stays unplaced. Two of the best alignments, found settling every tie the
// opposite ways: when their changes differ (same_change), the best is not unique.
std::pair<LineAlignment, LineAlignment> similarity_alignments(OriginalFile& file,
                                                              const std::vector<std::string_view>& old_lines,
                                                              std::size_t first, std::size_t last,
                                                              double min_line_similarity);

// The change written over an alignment: file lines [first_line, last_line] replaced by `text`
// ("\n" newlines, one after every line).
struct AlignedChange {
    std::size_t first_line = 0;
    std::size_t last_line = 0;
    std::string text;
};

// Why a block cannot be written over an alignment: the reason (for a message), and, when it is
// that added lines sit beside file lines the block leaves out, those lines (the call that works
// sends the block again with them in it; 0 when the reason is another).
struct AlignmentFailure {
    explicit AlignmentFailure(std::string reason, std::size_t first = 0, std::size_t last = 0)
        : why(std::move(reason)), left_out_first(first), left_out_last(last) {}
    std::string why;
    std::size_t left_out_first = 0;
    std::size_t left_out_last = 0;
};

// Added lines `added` (in order) beside file lines [from, to] that a block leaves out: the failure
// naming those lines and the two places, or none when the file comes out the same on either side
// (the added lines and the left-out ones are the same text, blank lines say).
std::optional<AlignmentFailure> beside_left_out(OriginalFile& file, const std::vector<std::string_view>& added,
                                                std::size_t from, std::size_t to);

// Applies the block (old_lines -> new_lines, in the order `ops` gives, PatchBlock::ops; paired by
// diff_lines when empty) over `alignment`: a context line is the file's own line, a removed line's
// file line goes, added lines go where the block puts them, and file lines the block does not
// mention stay. An added line is placed only where the block's own lines pin it: beside file lines
// the block leaves out, only after removed lines and before a removed line (a hunk's next run of
// changes starts after the left-out lines). Fails when a removed line has no file line, or when
// which side of an unmentioned file line added lines go cannot be told: they follow context, or
// follow removed lines with context after them, or (ops not given) the removed lines before them
// have one between them.
base::Result<AlignedChange, AlignmentFailure> apply_alignment(OriginalFile& file,
                                                              const std::vector<std::string_view>& old_lines,
                                                              const std::vector<std::string_view>& new_lines,
                                                              const LineAlignment& alignment, std::string_view ops);

// Whether two changes leave the file with the same lines (they may cover different ranges).
bool same_change(OriginalFile& file, const AlignedChange& a, const AlignedChange& b);

}  // namespace text
