// grep over files in other encodings: a GBK, Shift_JIS, cp1252, Latin-1 or UTF-16 file is searched
// as its text, as `read` shows it, so a UTF-8 pattern finds its words (before, it matched only the
// ASCII, showed the rest as U+FFFD, and skipped UTF-16 as binary). A file whose encoding cannot be
// told stays bytes, until the model names its encoding to `read`.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/encoded_files.hpp"
#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;
using namespace encoded_files;

TEST_CASE("grep: a file in another encoding is searched and shown as its text, the encoding named") {
    Fixture f;
    for (const auto& file : files) f.put(file.name, file.before);
    f.put("plain.txt", "no match here\n");
    for (const auto& file : files) {
        CAPTURE(file.name);
        const auto r = grep(f, {{"pattern", file.old_text}, {"literal", true}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(r.structured["files_with_matches"] == 1);
        CHECK(r.structured["binary_skipped"] == 0);
        const Json& found = r.structured["files"].at(0);
        CHECK(found["path"] == file.name);
        CHECK(found["encoding"] == file.encoding);
        // The line is numbered as read numbers it, and shown as read shows it.
        const std::string read = f.read(file.name).text;
        const std::size_t at = read.find(file.shown_line);
        REQUIRE(at != std::string::npos);
        const std::size_t line_start = read.rfind('\n', at) == std::string::npos ? 0 : read.rfind('\n', at) + 1;
        const std::size_t read_number = std::stoul(read.substr(line_start, at - line_start));
        CHECK(found["lines"].at(0) == read_number);
        CHECK(has(r.text, std::to_string(read_number) + ":"));
        CHECK(has(r.text, file.shown_line));
        CHECK(has(r.text, std::string(file.name) + " (" + file.encoding + ", searched and shown as its text)"));
        CHECK(r.text.find("\xEF\xBF\xBD") == std::string::npos);  // no U+FFFD
    }
    // A UTF-8 file is named without an encoding.
    const auto plain = grep(f, {{"pattern", "no match"}});
    CHECK(plain.structured["files"].at(0)["path"] == "plain.txt");
    CHECK_FALSE(plain.structured["files"].at(0).contains("encoding"));
    CHECK(has(plain.text, "plain.txt\n1:no match here"));
}

TEST_CASE("grep: a pattern of plain ASCII matches the text, not bytes inside a character, and shows it as text") {
    Fixture f;
    f.put("sjis.js", sjis_before);
    // Its line is shown as text, the encoding named.
    const auto word = grep(f, {{"pattern", "greeting"}});
    INFO(word.text);
    CHECK(has(word.text,
              "sjis.js (shift_jis, searched and shown as its text)\n2:const greeting = \"こんにちは、世界！\";"));
    // In Shift_JIS the second bytes of ー and ザ are '[' and 'U': the bytes match, the text does not.
    REQUIRE(sjis_before.find('[') != std::string::npos);
    REQUIRE(sjis_before.find('U') != std::string::npos);
    for (const char* inside : {"[", "U"}) {
        CAPTURE(inside);
        const auto r = grep(f, {{"pattern", inside}, {"literal", true}, {"path", "sjis.js"}});
        INFO(r.text);
        CHECK(r.structured["matches"] == 0);
    }
}

TEST_CASE("grep: a file whose encoding cannot be told stays bytes, until the model names it to read") {
    Fixture f;
    f.put("tiny.py", gbk_tiny);  // 8 non-ASCII bytes: too few to detect, as read says
    const auto before = grep(f, {{"pattern", "张三"}});
    REQUIRE_FALSE(before.is_error);
    CHECK(before.structured["matches"] == 0);
    const auto ascii = grep(f, {{"pattern", " = "}});
    CHECK(ascii.structured["matches"] == 1);
    CHECK_FALSE(ascii.structured["files"].at(0).contains("encoding"));

    const auto named = f.call(tools::read_handler(), {{"file_path", f.path("tiny.py")}, {"encoding", "gbk"}});
    REQUIRE_FALSE(named.is_error);
    const auto after = grep(f, {{"pattern", "张三"}});
    INFO(after.text);
    CHECK(after.structured["matches"] == 1);
    CHECK(has(after.text, "1:名字 = \"张三\""));
}

TEST_CASE("grep: UTF-32 and binary files are still skipped as binary") {
    Fixture f;
    f.put("u32.txt", std::string("\xFF\xFE\0\0a\0\0\0\n\0\0\0", 12));
    f.put("bin.dat", std::string("a\0b\n", 4));
    const auto r = grep(f, {{"pattern", "a"}});
    CHECK(r.structured["matches"] == 0);
    CHECK(r.structured["binary_skipped"] == 2);
}
