// ASCII case for the places that compare names and words without locale: charset labels,
// elision markers. Bytes outside A-Z pass unchanged (UTF-8 sequences included).
#pragma once

namespace base {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace base
