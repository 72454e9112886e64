// Unit tests of os/ignore_rules: gitignore lines parsed (comments, escapes, trailing spaces,
// negation, folders, anchoring) and the verdict over nested ignore files, as git decides.
#include <doctest/doctest.h>

#include <string>

#include "os/ignore_rules.hpp"

using os::IgnoreFile;

namespace {

// The path the rules ignore, or "" when none does.
std::string verdict(const std::vector<const IgnoreFile*>& files, const std::string& path, bool dir = false,
                    bool fold = false) {
    const auto v = os::ignored(files, path, dir, fold);
    return v ? v->ignored_path + " by " + v->rule->text + " (" + v->file->path + ":" + std::to_string(v->rule->line) +
                   ")"
             : "";
}

}  // namespace

TEST_CASE("ignore rules: comments, blank lines, escapes and trailing spaces") {
    const auto file =
        IgnoreFile::parse("\xEF\xBB\xBF# comment\n\n\\#hash\n\\!bang\nspace\\ \ntrail   \r\n/\n", ".x", "");
    REQUIRE(file.rules.size() == 4);
    CHECK(file.rules[0].pattern == "#hash");
    CHECK(file.rules[0].line == 3);
    CHECK(file.rules[1].pattern == "!bang");
    CHECK_FALSE(file.rules[1].negated);
    CHECK(file.rules[2].pattern == "space\\ ");
    CHECK(file.rules[3].pattern == "trail");
    CHECK(file.rules[3].text == "trail");
}

TEST_CASE("ignore rules: a name without / matches at any depth; with / it is anchored") {
    const auto file = IgnoreFile::parse("*.log\n/top.txt\ndoc/*.md\n", ".mcp-editignore", "");
    CHECK(verdict({&file}, "a.log") == "a.log by *.log (.mcp-editignore:1)");
    CHECK(verdict({&file}, "x/y/a.log") == "x/y/a.log by *.log (.mcp-editignore:1)");
    CHECK(verdict({&file}, "top.txt") != "");
    CHECK(verdict({&file}, "sub/top.txt") == "");
    CHECK(verdict({&file}, "doc/a.md") != "");
    CHECK(verdict({&file}, "x/doc/a.md") == "");
    CHECK(verdict({&file}, "doc/sub/a.md") == "");
}

TEST_CASE("ignore rules: a trailing / matches folders only, and everything inside them") {
    const auto file = IgnoreFile::parse("build/\nsecrets\n", ".i", "");
    CHECK(verdict({&file}, "build") == "");  // a file named build
    CHECK(verdict({&file}, "build", true) == "build by build/ (.i:1)");
    CHECK(verdict({&file}, "build/out/a.o") == "build by build/ (.i:1)");
    CHECK(verdict({&file}, "src/build/a.o") == "src/build by build/ (.i:1)");
    CHECK(verdict({&file}, "secrets/key.pem") == "secrets by secrets (.i:2)");
}

TEST_CASE("ignore rules: negation re-includes, the last matching rule wins") {
    const auto file = IgnoreFile::parse("*.env\n!example.env\n", ".i", "");
    CHECK(verdict({&file}, "prod.env") != "");
    CHECK(verdict({&file}, "example.env") == "");
    const auto later = IgnoreFile::parse("!example.env\n*.env\n", ".i", "");
    CHECK(verdict({&later}, "example.env") != "");
}

TEST_CASE("ignore rules: nothing inside an ignored folder can be re-included") {
    const auto file = IgnoreFile::parse("logs/\n!logs/keep.txt\n", ".i", "");
    CHECK(verdict({&file}, "logs/keep.txt") == "logs by logs/ (.i:1)");
    // The way git allows it: ignore the folder's contents, not the folder.
    const auto contents = IgnoreFile::parse("logs/*\n!logs/keep.txt\n", ".i", "");
    CHECK(verdict({&contents}, "logs/keep.txt") == "");
    CHECK(verdict({&contents}, "logs/other.txt") != "");
}

TEST_CASE("ignore rules: ** forms") {
    const auto file = IgnoreFile::parse("**/gen/*.ts\nout/**\na/**/b.txt\n", ".i", "");
    CHECK(verdict({&file}, "gen/x.ts") != "");
    CHECK(verdict({&file}, "src/deep/gen/x.ts") != "");
    CHECK(verdict({&file}, "out/x/y.txt") != "");
    CHECK(verdict({&file}, "out") == "");
    CHECK(verdict({&file}, "a/b.txt") != "");
    CHECK(verdict({&file}, "a/x/y/b.txt") != "");
}

TEST_CASE("ignore rules: a nested file speaks of its own folder and overrides the root's") {
    const auto root = IgnoreFile::parse("*.gen\n", ".i", "");
    const auto nested = IgnoreFile::parse("!keep.gen\n/local.txt\n", "sub/.i", "sub");
    const std::vector<const IgnoreFile*> files{&root, &nested};
    CHECK(verdict(files, "a.gen") == "a.gen by *.gen (.i:1)");
    CHECK(verdict(files, "sub/keep.gen") == "");
    CHECK(verdict(files, "keep.gen") != "");  // the nested file does not reach above its folder
    CHECK(verdict(files, "sub/local.txt") == "sub/local.txt by /local.txt (sub/.i:2)");
    CHECK(verdict(files, "local.txt") == "");
    CHECK(verdict(files, "sub/x/local.txt") == "");
    CHECK(verdict(files, "subway/keep.gen") != "");  // "sub" is not a folder above "subway/..."
}

TEST_CASE("ignore rules: case folding as Windows and macOS compare names") {
    const auto file = IgnoreFile::parse("Secrets/\n", ".i", "");
    CHECK(verdict({&file}, "secrets/a") == "");
    CHECK(verdict({&file}, "secrets/a", false, true) != "");
}

TEST_CASE("ignore rules: bounded") {
    std::string many;
    for (std::size_t i = 0; i < IgnoreFile::max_rules + 10; ++i) many += "x" + std::to_string(i) + "\n";
    many += std::string(IgnoreFile::max_line + 1, 'y') + "\n";
    CHECK(IgnoreFile::parse(many, ".i", "").rules.size() == IgnoreFile::max_rules);
}
