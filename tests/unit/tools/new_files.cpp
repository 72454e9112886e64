// New files written as the project says (issue 42, part 2): write and apply_diff create a file
// with .editorconfig's end_of_line, insert_final_newline, trim_trailing_whitespace and charset
// (its BOM too), or .gitattributes' eol when .editorconfig does not say; the result notes what was
// made of the model's text; an existing file is not reshaped; .editorconfig's latin1 is the
// encoding of an existing file without a BOM that is not UTF-8 text.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

namespace {

tools::ToolResult write(Fixture& f, const std::string& name, const std::string& content) {
    return f.call(tools::write_handler(), {{"file_path", f.path(name)}, {"content", content}});
}

}  // namespace

TEST_CASE("new files: .editorconfig's end_of_line, final newline, trimming and charset") {
    Fixture f;
    f.put(".editorconfig",
          "root = true\n\n[*]\nend_of_line = crlf\n\n[*.py]\ninsert_final_newline = true\n"
          "trim_trailing_whitespace = true\n\n[*.txt]\ncharset = latin1\ninsert_final_newline = false\n\n"
          "[*.cs]\ncharset = utf-8-bom\n\n[*.ps1]\ncharset = utf-16le\n");
    SUBCASE("a .py file: CRLF, trailing whitespace trimmed, a final newline") {
        const auto r = write(f, "src/a.py", "def a():   \n\treturn 1\t\ndef b():\r\n    return 2");
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("src/a.py") == "def a():\r\n\treturn 1\r\ndef b():\r\n    return 2\r\n");
        CHECK(has(r.text,
                  "as its .editorconfig says: crlf line endings, trailing whitespace trimmed, a final "
                  "newline added"));
    }
    SUBCASE("a .txt file: Latin-1, no final newline") {
        const auto r = write(f, "notes.txt", "Café crème\n");
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("notes.txt") == "Caf\xE9 cr\xE8me");
        CHECK(has(r.text, "the final newline removed (insert_final_newline = false), written in latin1"));
        // Read back as Latin-1 (the hint of its .editorconfig): the text the model wrote.
        const auto read = f.read("notes.txt");
        CHECK(read.structured["encoding"] == "iso-8859-1");
        CHECK(has(read.text, "Café crème"));
        // A character Latin-1 cannot hold is refused for a new file too.
        const auto euro = write(f, "price.txt", "5 €");
        CHECK(euro.is_error);
        CHECK(has(euro.text, "line 1: '€' (U+20AC) cannot be written in iso-8859-1"));
        CHECK_FALSE(fs::exists(f.root / "price.txt"));
    }
    SUBCASE("utf-8-bom and utf-16le put their BOM in front") {
        REQUIRE_FALSE(write(f, "A.cs", "class A {}").is_error);
        CHECK(f.get("A.cs") ==
              "\xEF\xBB\xBF"
              "class A {}");
        REQUIRE_FALSE(write(f, "b.ps1", "ok\n").is_error);
        CHECK(f.get("b.ps1") == std::string("\xFF\xFEo\0k\0\r\0\n\0", 10));
        // And it reads back as the text.
        const auto read = f.read("b.ps1");
        CHECK(read.structured["encoding"] == "utf-16le");
        CHECK(has(read.text, "ok"));
    }
    SUBCASE("apply_diff's new file too, and an existing file is not reshaped") {
        const auto r = f.call(
            tools::apply_diff_handler(),
            {{"diff", "*** Begin Patch\n*** Add File: " + f.path("c.py") + "\n+x = 1  \n+y = 2\n*** End Patch\n"}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("c.py") == "x = 1\r\ny = 2\r\n");
        f.put("old.py", "a = 1  \nb = 2");
        const auto e = f.call(tools::edit_handler(),
                              {{"file_path", f.path("old.py")}, {"old_string", "b = 2"}, {"new_string", "b = 3"}});
        REQUIRE_FALSE(e.is_error);
        CHECK(f.get("old.py") == "a = 1  \nb = 3");
    }
}

TEST_CASE("new files: .gitattributes eol in a git repository, when .editorconfig does not say") {
    Fixture f;
    fs::create_directories(f.root / ".git" / "info");
    f.put(".gitattributes", "* text=auto\n*.bat text eol=crlf\n*.sh eol=lf\nbin/** -text\n");
    f.put("sub/.gitattributes", "*.sh eol=crlf\n");
    SUBCASE("a .bat file gets CRLF") {
        const auto r = write(f, "run.bat", "@echo off\necho hi\n");
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("run.bat") == "@echo off\r\necho hi\r\n");
        CHECK(has(r.text, "with crlf line endings, as .gitattributes says (eol)"));
    }
    SUBCASE("a deeper .gitattributes overrides, and info/attributes over both") {
        REQUIRE_FALSE(write(f, "sub/a.sh", "echo\n").is_error);
        CHECK(f.get("sub/a.sh") == "echo\r\n");
        f.put(".git/info/attributes", "*.sh eol=lf\n");
        REQUIRE_FALSE(write(f, "sub/b.sh", "echo\r\n").is_error);
        CHECK(f.get("sub/b.sh") == "echo\n");
    }
    SUBCASE("-text turns it off; a file matching nothing is left as sent") {
        REQUIRE_FALSE(write(f, "bin/x.bat", "a\nb\n").is_error);
        CHECK(f.get("bin/x.bat") == "a\nb\n");
        REQUIRE_FALSE(write(f, "readme.md", "a\r\nb\n").is_error);
        CHECK(f.get("readme.md") == "a\r\nb\n");
    }
    SUBCASE(".editorconfig's end_of_line wins over .gitattributes") {
        f.put(".editorconfig", "root = true\n[*.bat]\nend_of_line = lf\n");
        REQUIRE_FALSE(write(f, "run.bat", "a\r\n").is_error);
        CHECK(f.get("run.bat") == "a\n");
    }
}

TEST_CASE("new files: outside a git repository .gitattributes says nothing") {
    Fixture f;
    f.put(".gitattributes", "*.bat eol=crlf\n");
    REQUIRE_FALSE(write(f, "run.bat", "a\n").is_error);
    CHECK(f.get("run.bat") == "a\n");
}
