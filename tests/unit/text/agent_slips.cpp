// Regression tests from the real-history corpus (issue 22): the sloppy calls real agents send that
// once reported success and left the wrong bytes. Each is either applied exactly right or refused.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "text/matcher.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_plan.hpp"
#include "text/splice.hpp"

namespace {

struct Edited {
    std::string bytes;  // the new content on success
    std::string error;  // the message on failure
    std::string tier;
    text::MatchErrorKind kind = text::MatchErrorKind::not_found;
};

Edited edit(std::string_view file, std::string_view old_s, std::string_view new_s) {
    Edited out;
    auto m = text::match_edit(file, text::EditSpec{old_s, new_s, false});
    if (!m) {
        out.error = m.error().message;
        out.kind = m.error().kind;
        return out;
    }
    out.tier = text::to_string(m->tier);
    auto spliced = text::splice(file, m->replacements);
    REQUIRE(spliced.ok());
    out.bytes = std::move(spliced.value());
    return out;
}

struct Patched {
    std::string bytes;
    std::string error;
};

Patched patch(std::string_view diff, std::optional<std::string_view> file, double fuzzy = 1.0) {
    Patched out;
    auto parsed = text::parse_patch(diff);
    if (!parsed) {
        out.error = parsed.error().message;
        return out;
    }
    REQUIRE(parsed->files.size() == 1);
    text::PlanOptions options;
    options.format = parsed->format;
    options.display_path = "f";
    options.fuzzy_threshold = fuzzy;
    auto plan = text::plan_file_patch(file, parsed->files[0], options);
    if (!plan) {
        out.error = plan.error().message;
        return out;
    }
    out.bytes = plan->bytes;
    return out;
}

}  // namespace

TEST_CASE("slip 1: a tolerant tier that finds two places refuses and names both") {
    // Lines 1-2 and 4-5 are both old_string moved by one indentation shift (tabs of width 4 for
    // spaces, at two depths): no tier may pick one of them.
    const std::string file = "      end\n    end\nx\n  end\nend\n";
    const Edited e = edit(file, "\t  end\n\tend", "\t  end\n\tEND");
    CHECK(e.bytes.empty());
    CHECK(e.kind == text::MatchErrorKind::ambiguous);
    CHECK(e.error.find("1-2") != std::string::npos);
    CHECK(e.error.find("4-5") != std::string::npos);
}

TEST_CASE("slip 2: new_string lines already in the file's style are not re-indented") {
    // The caller typed old_string with spaces but new_string with the file's tab and alignment spaces.
    const Edited e = edit("\tif (a)\n\t\tb();\n", "    if (a)", "\tif (a &&\n\t    c)");
    CHECK(e.error == "");
    CHECK(e.bytes == "\tif (a &&\n\t    c)\n\t\tb();\n");
    // Lines in the caller's style are still moved to the file's.
    const Edited mixed = edit("\tif (a)\n\t\tb();\n", "    if (a)\n        b();", "    if (a &&\n\t    c)\n        b();");
    CHECK(mixed.error == "");
    CHECK(mixed.bytes == "\tif (a &&\n\t    c)\n\t\tb();\n");
}

TEST_CASE("slip 3: whitespace-only lines and trailing whitespace in tolerant tiers") {
    // A whitespace-only line of new_string takes the file's style, not the caller's.
    const Edited blank = edit("\tif (a) {\n\t\tb();\n\t}\n", "    if (a) {\n        b();", "    if (a) {\n        \n        b();");
    CHECK(blank.error == "");
    CHECK(blank.bytes == "\tif (a) {\n\t\t\n\t\tb();\n\t}\n");
    // Trailing whitespace new_string drops is dropped from the file (old_string showed it, with
    // typographic quotes where the file has ASCII ones).
    const Edited dropped = edit("    a = 'x'  \nb\n", "    a = \xE2\x80\x98x\xE2\x80\x99  ", "    a = 'y'");
    CHECK(dropped.error == "");
    CHECK(dropped.bytes == "    a = 'y'\nb\n");
    const Edited ascii = edit("    a = 'x'  \nb\n", "    a = 'x'", "    a = 'y'");
    CHECK(ascii.error == "");
    CHECK(ascii.bytes == "    a = 'y'  \nb\n");  // the caller did not show the whitespace: it stays
    // A change that only removes trailing whitespace is a change, not "no change".
    const Edited only_ws = edit("    a = 'x'\n    \nb\n", "    a = \xE2\x80\x98x\xE2\x80\x99\n    ", "    a = 'x'\n");
    CHECK(only_ws.error == "");
    CHECK(only_ws.bytes == "    a = 'x'\n\nb\n");
}

TEST_CASE("slip 5: a file created by a unified diff keeps the newlines it was given") {
    const Patched crlf = patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n", std::nullopt);
    CHECK(crlf.error == "");
    CHECK(crlf.bytes == "a\r\nb\r\n");
    const Patched no_final = patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\r\n+b\r\n\\ No newline at end of file\n",
                                   std::nullopt);
    CHECK(no_final.bytes == "a\r\nb");
    CHECK(patch("--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n", std::nullopt).bytes == "a\nb\n");
    CHECK(patch("*** Begin Patch\n*** Add File: f\n+a\r\n+b\r\n*** End Patch\n", std::nullopt).bytes == "a\r\nb\r\n");
}
