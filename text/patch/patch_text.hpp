// A patch's text as numbered lines (LF, CRLF and lone CR all end a line), shared by the format
// detector and the three parsers. They must agree on every line number they quote.
#pragma once

#include "base/result.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/bytes/lines.hpp"
#include "text/patch/patch_model.hpp"

namespace text {

class PatchText {
public:
    explicit PatchText(std::string_view patch);
    PatchText(const PatchText&) = delete;  // lines_ points into text_
    PatchText& operator=(const PatchText&) = delete;

    std::size_t size() const { return lines_.size(); }
    // Line i (0-based), without its newline. A final newline does not start an extra empty line.
    std::string_view line(std::size_t i) const { return lines_[i]; }
    // The 1-based number of line i, as messages quote it.
    static std::size_t number(std::size_t i) { return i + 1; }
    // The newline that ended line i in the patch as given: "\n", "\r\n" or "\r"; the last line
    // without one reads as the newline of the line before it ("\n" for a one-line patch). A file
    // the patch creates is written with these, as git writes the bytes it is given.
    std::string_view newline(std::size_t i) const;

private:
    std::string text_;  // the patch with "\n" newlines
    std::vector<std::string_view> lines_;
    std::vector<unsigned char> newlines_;  // per line: 0 "\n", 1 "\r\n", 2 "\r", 3 none
};

// A line shown in a message: cut at `max_bytes` (with …), made valid UTF-8, quoted.
std::string quote_patch_line(std::string_view line, std::size_t max_bytes = 120);

// The errors of one format's parser, for a patch that cannot be read: "Malformed <format> at line
// N: <what> Nothing was changed.", then `help` (what a correct one looks like) on its own line
// when there is one.
struct MalformedPatch {
    std::string_view format;
    std::string_view help = {};

    PatchError at(std::size_t line, std::string_view what) const;
    base::Unexpected<PatchError> fail(std::size_t line, std::string_view what) const {
        return base::fail(at(line, what));
    }
};

}  // namespace text
