// Unit tests of checks/check_rules: the glob semantics of --check, command splitting, {file}.
#include <doctest/doctest.h>

#include "checks/check_rules.hpp"

using checks::CheckRule;
using text::Glob;
using text::glob_match;
using checks::split_command;

TEST_CASE("glob_match: * and ? stop at /, ** crosses folders, **/ may match no folder") {
    CHECK(glob_match("*.py", "a.py"));
    CHECK(glob_match("*.py", ".py"));
    CHECK_FALSE(glob_match("*.py", "a.pyc"));
    CHECK_FALSE(glob_match("*.py", "src/a.py"));
    CHECK(glob_match("?.c", "a.c"));
    CHECK_FALSE(glob_match("?.c", "ab.c"));
    CHECK_FALSE(glob_match("a?b", "a/b"));
    CHECK(glob_match("src/**/*.ts", "src/a.ts"));
    CHECK(glob_match("src/**/*.ts", "src/x/y/a.ts"));
    CHECK_FALSE(glob_match("src/**/*.ts", "lib/a.ts"));
    CHECK(glob_match("src/**", "src/x/y"));
    CHECK(glob_match("**/test_*.py", "test_a.py"));
    CHECK(glob_match("**/test_*.py", "a/b/test_a.py"));
    CHECK_FALSE(glob_match("**/test_*.py", "a/b/xtest_a.py"));
    CHECK(glob_match("[ab].txt", "b.txt"));
    CHECK_FALSE(glob_match("[!ab].txt", "b.txt"));
    CHECK(glob_match("[a-c]x", "cx"));
    CHECK(glob_match("\\*.txt", "*.txt"));
    CHECK_FALSE(glob_match("\\*.txt", "a.txt"));
}

TEST_CASE("glob_match: no exponential backtracking on many stars") {
    const std::string text(2000, 'a');
    CHECK_FALSE(glob_match("*a*a*a*a*a*a*a*a*a*a*a*b", text));
}

TEST_CASE("Glob: braces expand (nested too); a glob with / matches the path under the root") {
    auto g = text::Glob::parse("*.{c,cc,cpp,h,hpp}");
    REQUIRE(g);
    CHECK(g->matches("x.cc", "src/x.cc"));
    CHECK(g->matches("x.hpp", "x.hpp"));
    CHECK_FALSE(g->matches("x.py", "x.py"));
    CHECK_FALSE(g->on_path());
    auto nested = text::Glob::parse("a.{x,y{1,2}}");
    REQUIRE(nested);
    CHECK(nested->matches("a.y2", "a.y2"));
    CHECK(nested->matches("a.x", "a.x"));
    CHECK_FALSE(nested->matches("a.y", "a.y"));
    auto path = text::Glob::parse("src/*.py");
    REQUIRE(path);
    CHECK(path->on_path());
    CHECK(path->matches("a.py", "src/a.py"));
    CHECK_FALSE(path->matches("a.py", "a.py"));
    CHECK_FALSE(path->matches("a.py", "lib/src/a.py"));
    auto anchored = text::Glob::parse("/src/*.py");
    REQUIRE(anchored);
    CHECK(anchored->matches("a.py", "src/a.py"));
    auto literal = text::Glob::parse("{x}.txt");  // no comma: literal braces
    REQUIRE(literal);
    CHECK(literal->matches("{x}.txt", "{x}.txt"));
    CHECK_FALSE(text::Glob::parse(""));
    CHECK_FALSE(text::Glob::parse("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}"));  // 512 alternatives
}

TEST_CASE("split_command: shell-like quoting, no expansion") {
    auto words = checks::split_command("python3 -m py_compile {file}");
    REQUIRE(words);
    CHECK(*words == std::vector<std::string>{"python3", "-m", "py_compile", "{file}"});
    auto quoted = checks::split_command(R"(sh -c 'echo "$1" | wc -c' sh {file})");
    REQUIRE(quoted);
    CHECK(*quoted == std::vector<std::string>{"sh", "-c", "echo \"$1\" | wc -c", "sh", "{file}"});
    auto dq = checks::split_command(R"(a "b c" "d\"e" "f\g" h\ i $HOME)");
    REQUIRE(dq);
    CHECK(*dq == std::vector<std::string>{"a", "b c", "d\"e", "f\\g", "h i", "$HOME"});
    auto joined = checks::split_command(R"(x'y'"z" '')");
    REQUIRE(joined);
    CHECK(*joined == std::vector<std::string>{"xyz", ""});
    CHECK(checks::split_command("a 'b").error().message == "the command has an unterminated ' quote");
    CHECK(checks::split_command("a \"b").error().message == "the command has an unterminated \" quote");
    CHECK(checks::split_command("a\\").error().message == "the command ends with a lone backslash");
    CHECK(checks::split_command("   ").error().message == "the command is empty");
}

TEST_CASE("CheckRule: GLOB=COMMAND, {file} filled inside arguments, appended when absent") {
    auto rule = checks::CheckRule::parse("*.json=python3 -m json.tool {file}");
    REQUIRE(rule);
    CHECK(rule->command == "python3 -m json.tool {file}");
    CHECK(rule->argv_for("/r/a b.json") == std::vector<std::string>{"python3", "-m", "json.tool", "/r/a b.json"});
    auto inside = checks::CheckRule::parse("*.c=cc --file={file} -o /dev/null");
    REQUIRE(inside);
    CHECK(inside->argv_for("/r/x.c") == std::vector<std::string>{"cc", "--file=/r/x.c", "-o", "/dev/null"});
    auto appended = checks::CheckRule::parse("*.sh=shellcheck");
    REQUIRE(appended);
    CHECK(appended->argv_for("/r/x.sh") == std::vector<std::string>{"shellcheck", "/r/x.sh"});
    CHECK_FALSE(checks::CheckRule::parse("no equals sign"));
    CHECK(checks::CheckRule::parse("*.py=").error().message == "*.py=: the command is empty");
    CHECK(checks::CheckRule::parse("=true").error().message == "=true: the glob is empty");
}
