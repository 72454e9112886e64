// What the caller's indentation stands for in the file, learned from the caller's old lines and
// the file lines they were found at; shared by tolerant matches and line-by-line placement.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace text {

class IndentTranslation {
public:
    // One old line of the caller and the file line it stands for (ignored when the old line is
    // blank).
    void learn(std::string_view caller_line, std::string_view file_line);
    // Some pair was indented differently on the two sides.
    bool shifted() const { return shifted_; }

    struct Lookup {
        std::optional<std::string> indent;  // the file's indentation, when known
        bool conflict = false;              // the caller's indentation stands for two of the file's
        std::string first, second;          // those two, for the message
    };
    // The file's indentation for a new line the caller indented `caller`. `rewritten_caller` and
    // `rewritten_file`: the old line this new line rewrites and its file line, if any; when the
    // caller indented both alike, the file line's indentation is taken (the nearest evidence).
    Lookup find(std::string_view caller, std::optional<std::string_view> rewritten_caller,
                std::optional<std::string_view> rewritten_file) const;

    // The indentations of the file's lines (those with visible text), at most a few hundred
    // distinct ones: read once, for the checks below.
    void read_file_indents(std::string_view lf_text);
    // The one indentation of the file's lines whose text after it is `text`, among those as wide
    // as `indent` (tabs `tab_width` wide); nullopt when there is none or more than one.
    std::optional<std::string> form_of_same_text(std::string_view text, std::string_view indent,
                                                 std::size_t tab_width) const;
    // The one indentation, as wide as `indent`, of the file's lines that follow a line ending in
    // `previous_end` (its last visible byte): how the file itself tells a line that continues the
    // one before it from one that starts anew. nullopt when the file shows none or several.
    // `previous_indent`, when given, narrows it to lines after a line indented exactly so (a
    // statement after a statement, or a continuation after a line that opens one); when that shows
    // nothing, lines after any line ending so are used.
    std::optional<std::string> form_after(char previous_end, std::optional<std::string_view> previous_indent,
                                          std::string_view indent, std::size_t tab_width) const;
    // Whether some line of the file is indented exactly `indent`.
    bool in_file(std::string_view indent) const;
    // A form of indentation in the file other than `indent` as wide as it (tabs `tab_width` wide),
    // if any: a caller who typed that width in the other kind of blanks could mean either.
    std::optional<std::string> other_form_as_wide(std::string_view indent, std::size_t tab_width) const;

private:
    struct Entry {
        std::string file;
        std::optional<std::string> other;
    };
    std::map<std::string, Entry, std::less<>> known_;
    bool shifted_ = false;
    std::vector<std::string> file_indents_;
    std::string_view file_text_;  // the text read_file_indents was given
};

}  // namespace text
