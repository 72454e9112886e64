// Findings read out of a check's output (compilers, linters, Python), and which of them a change
// introduced or fixed. Pure text: the output and the file's bytes in, findings out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace checks {

struct Diagnostic {
    std::string file;        // absolute when the output named it relative to `directory`
    std::size_t line = 0;    // 1-based; 0 when the output gave none
    std::size_t column = 0;  // 1-based; 0 when the output gave none
    std::string severity;    // error, warning, note, info (as the tool said, lower case; "fatal error" -> error)
    std::string message;
    std::string line_text;  // the text of that line in the checked image (trimmed), for comparisons; not reported
};

// At most this many findings are read from one output.
inline constexpr std::size_t max_diagnostics = 200;

// Reads findings from `output`, line by line, in these forms:
//   GCC/Clang, mypy, many others: `file:line:col: severity: message`, `file:line: severity: message`
//   tsc (--pretty false):          `file(line,col): error TS1005: message`
//   ESLint unix:                   `file:line:col: message [Error/rule]`
//   ESLint compact:                `file: line N, col M, Error - message (rule)`
//   Python tracebacks and py_compile: `  File "x", line N` ... then `SomeError: message`
//   Python json (json.tool):       `message: line N column M (char K)` (about `checked_file`)
// Relative file names are taken relative to `directory`.
std::vector<Diagnostic> parse_diagnostics(std::string_view output, const std::string& checked_file,
                                          const std::string& directory);

// Fills line_text of every finding about `file` from `bytes` (the image that was checked).
void attach_line_text(std::vector<Diagnostic>& found, const std::string& file, std::string_view bytes);

// Which findings of `after` are not in `before` (new) and which of `before` are gone (fixed).
// Two findings are the same when file, severity, message and the text of their line agree: line
// numbers alone shift whenever lines are added above. Counted as multisets.
struct DiagnosticChanges {
    std::vector<bool> is_new;       // per finding of `after`
    std::vector<Diagnostic> fixed;  // from `before`
};
DiagnosticChanges compare_diagnostics(const std::vector<Diagnostic>& before, const std::vector<Diagnostic>& after);

}  // namespace checks
