// Elision markers: the lines a model writes instead of code it leaves out ("# ... rest of the code
// unchanged ...", "// ...existing code...", "[...]"), which, written over a file, silently delete
// that code (issue 42). This finds them in new text and decides whether a change drops real lines
// for one; and it says when a change removes most of a file. Pure: no I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace text {

// Whether one line (no terminator) is, by itself, an elision marker: its only content is a comment
// (any language's syntax: #, //, /* */, <!-- -->, --, ;, %, ', REM, """...""") or a bracketed or
// bare ellipsis whose words say code is left out. A bare "..." counts here; elision_marker_lines
// decides from the lines around it whether it is real content (a Python Ellipsis body, a doctest
// line, a YAML document end).
bool is_elision_marker(std::string_view line);

// Whether any line of `text` is one (is_elision_marker, no context): a cheap first look.
bool has_elision_marker(std::string_view text);

// The 0-based indexes of the marker lines of `text` (a UTF-8 BOM skipped, "\n" or "\r\n" lines),
// the context applied: a bare "..." is not a marker right after a line ending in ":" (a Python
// block's Ellipsis body), after a doctest line (">>> " or "... "), anywhere in a .pyi stub file,
// or unindented in a YAML file (.yaml, .yml: the document end). `path` is only read for its suffix.
std::vector<std::size_t> elision_marker_lines(std::string_view text, std::string_view path);

// A change that puts a marker where real lines were.
struct Elision {
    std::size_t marker_line = 0;            // 1-based, in the new text
    std::string marker;                     // the marker line, trimmed
    std::vector<std::size_t> dropped;       // 1-based lines of the old text the change drops (non-blank ones)
    std::vector<std::string> dropped_text;  // the first few of them, trimmed and cut
};

// The first marker line of `new_text` that (a) is not already a line of `old_text` (compared
// trimmed) and (b) comes with a change that drops non-blank lines of `old_text` (lines the new text
// does not keep); the dropped lines listed are the ones the marker's own run of changed lines
// removes, or, when the diff put them elsewhere, every non-blank line the change removes. nullopt:
// no such marker (none, already in the file, or a pure insertion).
std::optional<Elision> find_elision(std::string_view old_text, std::string_view new_text, std::string_view path);

// The refusal for the model: the marker and its line, the lines it would drop (first few shown),
// nothing written, and what to send instead (the whole content, or edit of the part that changes).
std::string elision_refusal(const Elision& elision, std::string_view display_path, std::string_view tool);

// How many lines `bytes` has (a last line without a newline counts).
std::size_t count_lines(std::string_view bytes);

// "removes 412 of 480 lines" when a change removes most of a file: the file had over 20 lines and
// the lines removed outnumber the lines added by more than half of them; "" otherwise.
std::string removal_headline(std::size_t removals, std::size_t additions, std::size_t old_lines);

}  // namespace text
