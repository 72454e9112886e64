// Unit tests of format detection: the first distinctive line decides.
#include <doctest/doctest.h>

#include <string>

#include "text/patch/patch_detect.hpp"

using text::PatchFormat;

namespace {

std::string format_of(std::string_view patch) {
    auto f = text::detect_patch_format(patch);
    return f.ok() ? text::to_string(f.value()) : "ERROR";
}

}  // namespace

TEST_CASE("patch format: detected from the first distinctive line") {
    CHECK(format_of("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n") == "search_replace");
    CHECK(format_of("intro text\n<<<<<<< SEARCH\n--- a\n+++ b\n=======\n>>>>>>> REPLACE") == "search_replace");
    CHECK(format_of("*** Begin Patch\n*** Delete File: x\n*** End Patch\n") == "apply_patch");
    CHECK(format_of("*** Update File: x\n@@\n-a\n+b\n") == "apply_patch");
    CHECK(format_of("diff --git a/x b/x\n") == "unified");
    CHECK(format_of("--- x\t2024-01-01\n+++ x\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n") == "unified");
    CHECK(format_of("@@ -3,2 +3,2 @@\n a\n-b\n+c\n") == "unified");
    CHECK(format_of("@@ @@\n-a\n+b\n") == "unified");
    CHECK(format_of("@@\n a\n") == "unified");
    CHECK(format_of("@@ note\nplain text\n") == "ERROR");
    CHECK(format_of("--- just a rule\nnot a header\n") == "ERROR");

    auto none = text::detect_patch_format("please change foo to bar");
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.starts_with(
        "The diff is in no format apply_diff knows. Nothing was changed. Send one of these:\n"
        "1. SEARCH/REPLACE blocks (the file is given by file_path):\n<<<<<<< SEARCH\n"));
    CHECK(none.error().message.find("*** Begin Patch\n*** Update File: PATH\n") != std::string::npos);
    auto empty = text::detect_patch_format("");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message.starts_with("The diff is empty. Nothing was changed."));
}
