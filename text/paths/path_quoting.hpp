// Paths shown to a model or a human, quoted as git quotes them (core.quotePath=false) when they
// hold anything that could make one entry read as two or hide what it is: a name with a newline,
// CR, tab, ESC (ANSI sequences), another control character or invalid UTF-8 could otherwise forge
// lines of a listing, a grep result or a diff header. One helper for every listing and diff, and
// the reading back of a quoted name (a diff header's, or one a model passes back).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace text {

// True when quoted_path would quote `path`: it holds a C0 control character (U+0000-U+001F),
// DEL, a C1 control character (U+0080-U+009F, which some terminals obey as escapes), U+2028 or
// U+2029 (line breaks to JSON viewers), `"` or `\`, or bytes that are not UTF-8. git quotes the
// same (C0, DEL, `"`, `\`; it also quotes every non-ASCII byte unless core.quotePath is false,
// and this keeps valid UTF-8 as it is, as git does with core.quotePath=false).
bool needs_quoting(std::string_view path);

// `path` unchanged when needs_quoting is false; else in double quotes, git's C-style escapes
// inside: \a \b \t \n \v \f \r \" \\, and three octal digits (\033, \177, \302\233, \377) for any
// other byte that made it quoted. Reading it back as git's unquote_c_style (or a C string) gives
// the bytes; for a name with only \n \t \r \" \\ \b \f escapes the quoted form is also a JSON
// string literal of the name, so an agent can pass it back as a path argument as it is.
// With `always`, quoted even when needs_quoting is false (a diff header quotes a name with a
// trailing blank, which readers of headers would cut).
std::string quoted_path(std::string_view path, bool always = false);

// A git C-quoted name ("a/b\tc") from s[*at] (at the opening quote); advances past the closing one.
std::optional<std::string> unquote(std::string_view s, std::size_t* at);

// The name a whole quoted path stands for (`"odd\nname"` with its quotes, as quoted_path writes
// it and a model may pass it back); nothing when `path` is not one quoted string.
std::optional<std::string> unquoted_path(std::string_view path);

}  // namespace text
