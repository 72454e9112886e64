// Fitting new_string to the place a tolerant tier found: the lines the caller wrote the same in
// old_string and new_string keep the file's own bytes; only the lines it changed are written anew.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "text/match/indentation_search.hpp"

namespace text {

struct FitRequest {
    std::string_view needle;             // old_string as searched ("\n" newlines)
    std::string_view region;             // the file's text it matched ("\n" newlines)
    std::string_view replacement;        // new_string ("\n" newlines)
    const IndentShift* shift = nullptr;  // the indentation tier's shift, if that tier found it
    bool folded = false;                 // found with Unicode folded: new text takes the file's typography
    // The whole file ("\n" newlines): with a tabs-for-spaces shift, a new line's indentation is
    // refused as unclear when the file has another form of the same width.
    std::string_view file_text;
    std::string_view before_region;  // the file's text before the region ("\n" newlines)
};

// Why new_string cannot be fitted: one caller indentation stands for two of the file's.
struct FitProblem {
    std::string caller_indentation;
    std::string file_indentation_a;
    std::string file_indentation_b;
    std::size_t replacement_line = 0;  // 1-based line of new_string that needs it
};

// The text that replaces `region`. A line of new_string byte-equal to the line of old_string that
// diff_lines pairs it with is that line's text in the file (its trailing whitespace, typography and
// indentation kept). Other lines: with a shift, the file's indentation for the caller's (learned
// from the lines old_string matched; a line already indented in the file's style is left alone;
// otherwise the shift moves it); when folded, the file's typography (a rewritten line ends as
// new_string ends it: trailing blanks are not carried over). When old_string and the region
// do not have the same number of lines, the whole new_string is moved or given the typography.
base::Result<std::string, FitProblem> fit_replacement(const FitRequest& request);

}  // namespace text
