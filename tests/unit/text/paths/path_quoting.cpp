// Unit tests of text/path_quoting: paths quoted as git quotes them (C escapes, octal for other
// control bytes and bytes that are not UTF-8) so that one listed name can never read as two.
#include <doctest/doctest.h>

#include <string>

#include "text/paths/path_quoting.hpp"

TEST_CASE("path_quoting: plain names, spaces and UTF-8 stay as they are") {
    for (const char* name :
         {"a.txt", "src/main.c", "with space.md", "caf\xC3\xA9/\xE6\x97\xA5\xE6\x9C\xAC.txt", "a'b", "", "-x"}) {
        CHECK_FALSE(text::needs_quoting(name));
        CHECK(text::quoted_path(name) == name);
    }
}

TEST_CASE("path_quoting: control characters, quotes and backslashes are quoted as git quotes them") {
    CHECK(text::quoted_path("odd\nname") == "\"odd\\nname\"");
    CHECK(text::quoted_path("a/b\tc\rd") == "\"a/b\\tc\\rd\"");
    CHECK(text::quoted_path("\x1b[31mred") == "\"\\033[31mred\"");  // an ANSI escape
    CHECK(text::quoted_path("x\x7fy") == "\"x\\177y\"");
    CHECK(text::quoted_path("\a\b\v\f") == "\"\\a\\b\\v\\f\"");
    CHECK(text::quoted_path("say \"hi\"") == "\"say \\\"hi\\\"\"");
    CHECK(text::quoted_path("back\\slash") == "\"back\\\\slash\"");
    CHECK(text::quoted_path(std::string("nul\0x", 5)) == "\"nul\\000x\"");
    // Bytes that are not UTF-8, and C1 controls and line separators that are: octal bytes.
    CHECK(text::quoted_path("caf\xE9.txt") == "\"caf\\351.txt\"");
    CHECK(text::quoted_path("\xC2\x9B"
                            "2J") == "\"\\302\\2332J\"");
    CHECK(text::quoted_path("a\xE2\x80\xA8"
                            "b") == "\"a\\342\\200\\250b\"");
    CHECK(text::quoted_path("caf\xC3\xA9\n") == "\"caf\xC3\xA9\\n\"");  // UTF-8 kept inside quotes
    // A quoted form never holds a raw line break or control byte: one entry stays one line.
    const std::string q = text::quoted_path("evil\n5:forged match\r\x1b[2K");
    CHECK(q == "\"evil\\n5:forged match\\r\\033[2K\"");
    for (const char c : q) CHECK(static_cast<unsigned char>(c) >= 0x20);
}
