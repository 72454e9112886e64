// Unit tests of the escapes messages use: bytes as \xHH, code points as U+XXXX.
#include <doctest/doctest.h>

#include <string>

#include "text/unicode/escapes.hpp"

TEST_CASE("escaped_bytes: printable ASCII kept, every other byte and the backslash as \\xHH") {
    CHECK(text::escaped_bytes("a\\b\x01\xE9", 0, 5) == "a\\x5Cb\\x01\\xE9");
    CHECK(text::escaped_bytes("abcdef", 2, 4) == "\u2026cd\u2026");
}

TEST_CASE("code_point_label: at least four hex digits") {
    CHECK(text::code_point_label(0x2019) == "U+2019");
    CHECK(text::code_point_label(0xA0) == "U+00A0");
    CHECK(text::code_point_label(0x1F600) == "U+1F600");
}
