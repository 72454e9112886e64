// Unit tests of the SEARCH/REPLACE reader: blocks, :start_line:, separators, escapes, and the messages
// of malformed blocks.
#include <doctest/doctest.h>

#include <string>

#include "parse_error.hpp"
#include "text/patch/patch_detect.hpp"
#include "text/patch/patch_search_replace.hpp"

using test_text::parse_error;
using text::FileAction;
using text::PatchFormat;

namespace {

const std::string kSrFormat = std::string("\n") + text::kSearchReplaceFormat;

}  // namespace

TEST_CASE("search/replace: blocks with :start_line:, :end_line:, separators and their patch lines") {
    const std::string patch =
        "Here is the change:\n"
        "<<<<<<< SEARCH\n"
        ":start_line:12\n"
        ":end_line:13\n"
        "-------\n"
        "  old one\n"
        "  old two\n"
        "=======\n"
        "  new one\n"
        ">>>>>>> REPLACE\n"
        "\n"
        "<<<<<<< SEARCH\n"
        "remove me\n"
        "=======\n"
        ">>>>>>> REPLACE\n";
    auto p = text::parse_search_replace(patch);
    REQUIRE(p.ok());
    CHECK(p->format == PatchFormat::search_replace);
    CHECK(p->block_count == 2);
    REQUIRE(p->files.size() == 1);
    const text::FilePatch& f = p->files[0];
    CHECK(f.path.empty());
    CHECK(f.action == FileAction::update);
    REQUIRE(f.blocks.size() == 2);
    CHECK(f.blocks[0].index == 1);
    CHECK(f.blocks[0].patch_line == 2);
    CHECK(f.blocks[0].start_line == 12u);
    CHECK(f.blocks[0].end_line == 13u);
    CHECK(f.blocks[0].old_text == "  old one\n  old two\n");
    CHECK(f.blocks[0].new_text == "  new one\n");
    CHECK(f.blocks[1].index == 2);
    CHECK(f.blocks[1].patch_line == 12);
    CHECK_FALSE(f.blocks[1].start_line.has_value());
    CHECK(f.blocks[1].old_text == "remove me\n");
    CHECK(f.blocks[1].new_text == "");
}

TEST_CASE("search/replace: escaped markers lose their backslash; CRLF patches read as LF") {
    const std::string patch =
        "<<<<<<< SEARCH\r\n"
        "\\<<<<<<< HEAD\r\n"
        "\\=======\r\n"
        "\\>>>>>>> branch\r\n"
        "\\-------\r\n"
        "\\:start_line:3\r\n"
        "\\not a marker\r\n"
        "=======\r\n"
        "\\=======\r\n"
        ">>>>>>> REPLACE\r\n";
    auto p = text::parse_patch(patch);
    REQUIRE(p.ok());
    const text::PatchBlock& b = p->files[0].blocks[0];
    CHECK(b.old_text == "<<<<<<< HEAD\n=======\n>>>>>>> branch\n-------\n:start_line:3\n\\not a marker\n");
    CHECK(b.new_text == "=======\n");
    CHECK_FALSE(b.start_line.has_value());
}

TEST_CASE("search/replace: malformed blocks quote the offending line and show the format") {
    CHECK(parse_error("<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 5: a second \"=======\" in the block that starts at line 1 (its "
          "first is at line 3). If the REPLACE text contains a line \"=======\", write it as \"\\=======\"; "
          "otherwise end the block with \">>>>>>> REPLACE\" first. Nothing was changed." +
              kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 3: \">>>>>>> REPLACE\" before the \"=======\" of the block that "
          "starts at line 1: the SEARCH and REPLACE parts must be separated by a line \"=======\". Nothing was "
          "changed." +
              kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:4\n-------\n=======\nnew\n>>>>>>> REPLACE\n") ==
          "Malformed SEARCH/REPLACE diff at line 4: the SEARCH part of the block that starts at line 1 is empty. "
          "SEARCH must hold the exact lines to replace, copied from the file; to add lines, put a neighbouring "
          "line in SEARCH and again in REPLACE next to the new ones. Nothing was changed." +
              kSrFormat);
    CHECK(parse_error("<<<<<<< SEARCH\n   \n\n=======\nnew\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 4: the SEARCH part of the block that starts at line "
                           "1 is empty."));
    CHECK(parse_error("<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 5: \"<<<<<<< SEARCH\" inside the block that "
                           "starts at line 1: that block is missing its \">>>>>>> REPLACE\" line."));
    CHECK(parse_error("<<<<<<< SEARCH\na\n<<<<<<< SEARCH\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: \"<<<<<<< SEARCH\" inside the block that "
                           "starts at line 1: that block is missing its \"=======\" and \">>>>>>> REPLACE\" lines."));
    CHECK(parse_error("x\n<<<<<<< SEARCH\na\n=======\nb\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 2: the block that starts at line 2 has no "
                           "\">>>>>>> REPLACE\": the diff ends inside its REPLACE part (after the \"=======\" at "
                           "line 4)."));
    CHECK(parse_error("<<<<<<< SEARCH\na\nb\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 1: the block that starts at line 1 has no "
                           "\"=======\" and no \">>>>>>> REPLACE\": the diff ends inside its SEARCH part."));
    CHECK(text::parse_search_replace("=======\n>>>>>>> REPLACE\n")
              .error()
              .message.starts_with(
                  "Malformed SEARCH/REPLACE diff at line 1: found \"=======\" outside a block: a block must start with "
                  "\"<<<<<<< SEARCH\" before its \"=======\" and \">>>>>>> REPLACE\"."));
    CHECK(parse_error("<<<<<<< SEARCH\n-------\n:start_line:5\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: \":start_line:5\" comes after the \"-------\" "
                           "of the block that starts at line 1: :start_line: and :end_line: go right after "
                           "\"<<<<<<< SEARCH\", before \"-------\""));
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:x\n-------\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 2: \":start_line:x\" must give a line number of 1 "
                           "or more, as in \":start_line:12\"."));
    CHECK(parse_error("<<<<<<< SEARCH\n:start_line:1\n:start_line:2\na\n=======\nb\n>>>>>>> REPLACE\n")
              .starts_with("Malformed SEARCH/REPLACE diff at line 3: the block that starts at line 1 gives "
                           ":start_line: twice."));
    auto p = text::parse_patch("<<<<<<< SEARCH\na\n=======\nb\n=======\n>>>>>>> REPLACE\n");
    CHECK(p.error().patch_line == 5);
}
