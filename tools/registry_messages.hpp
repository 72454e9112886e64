// What the registry tells the model about a call's arguments: the invalid-arguments message and
// its findings for arguments a tool does not take, and the notes of a call that went through
// anyway (arguments set aside, arrays and objects sent as JSON strings). Text only; the registry
// decides which applies.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tools {

// "Invalid arguments for TOOL:" with one line per finding, then what the tool takes.
std::string invalid_arguments_message(std::string_view tool, const std::vector<std::string>& findings,
                                      std::string_view arguments_summary);
// More unknown arguments than the registry looks at; `first` are the first of them.
std::string too_many_unknown_arguments(std::string_view tool, std::size_t count, std::size_t looked_at,
                                       const std::vector<std::string>& first);
// An unknown argument whose name speaks of safety, refused rather than run without it.
std::string unsafe_unknown_argument(std::string_view key, std::string_view tool, std::string_view honoured);
// An unknown argument that looks like `meant`, which the call gives too.
std::string unknown_argument_also_given(std::string_view key, std::string_view tool, std::string_view meant);
// An unknown argument that looks like `meant`.
std::string unknown_argument_did_you_mean(std::string_view key, std::string_view tool, std::string_view meant);
// The note of a call whose unknown arguments `ignored` were set aside; "" when none.
std::string ignored_arguments_note(const std::vector<std::string>& ignored);
// The note of a call whose array or object arguments (`decoded`: "`edits`, `file_paths`") came as
// JSON strings and were read as the values they hold.
std::string stringified_arguments_note(std::string_view decoded);

}  // namespace tools
