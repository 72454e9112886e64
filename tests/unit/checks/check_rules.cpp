// Unit tests of checks/check_rules: command splitting, GLOB=COMMAND and {file} (the globs
// themselves: tests/unit/text/glob.cpp).
#include <doctest/doctest.h>

#include "checks/check_rules.hpp"

using checks::CheckRule;
using checks::split_command;

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
