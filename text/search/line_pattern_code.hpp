// The compiled form of a LinePattern (PCRE2's code and what compiling learned about the pattern),
// shared by the compiler (line_pattern.cpp) and the matcher that runs it (line_search.cpp).
#pragma once

#include <pcre2.h>

#include "text/search/line_search.hpp"

namespace text {

struct LinePattern::Code {
    pcre2_code* code = nullptr;
    bool jit = false;
    bool utf = false;  // compiled in UTF mode: a start offset must not fall inside a character
    // A match may look behind its start (lookbehind, \b): on the whole buffer that could see the line
    // before, so such hits are confirmed on the line alone.
    bool looks_behind = false;
    bool each_line_alone = false;  // see LinePattern::each_line_alone
    ~Code() {
        if (code) pcre2_code_free(code);
    }
};

}  // namespace text
