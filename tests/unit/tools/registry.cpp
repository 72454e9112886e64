// Unit tests of the registry's handling of arguments a tool does not take: what a host adds for
// its own bookkeeping is set aside, a likely misspelling fails the call naming the right argument.
#include <doctest/doctest.h>

#include <string>

#include "tools/registry.hpp"

namespace {

const tools::Registry& registry() {
    static const tools::Registry instance;
    return instance;
}

const tools::ToolDefinition& tool(std::string_view name) {
    const tools::ToolDefinition* found = registry().find(name);
    REQUIRE(found != nullptr);
    return *found;
}

std::optional<std::string> meant(std::string_view tool_name, std::string_view unknown) {
    return tools::Registry::likely_meant(tool(tool_name), unknown);
}

bool mentions(const std::optional<std::string>& text, std::string_view part) {
    return text && text->find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("unknown arguments: case, `_` and `-` differences are misspellings of the tool's own names") {
    CHECK(meant("edit", "replaceAll") == "replace_all");
    CHECK(meant("edit", "dryRun") == "dry_run");
    CHECK(meant("edit", "dry-run") == "dry_run");
    CHECK(meant("edit", "FILE_PATH") == "file_path");
    CHECK(meant("read", "filepath") == "file_path");  // like the alias filePath
    CHECK(meant("write", "FILE-TEXT") == "content");  // an alias: the canonical name is suggested
    CHECK(meant("edit", "OLD") == "old_string");
}

TEST_CASE("unknown arguments: a few letters apart are misspellings; short names only when equal") {
    CHECK(meant("edit", "old_strng") == "old_string");
    CHECK(meant("edit", "file_pth") == "file_path");
    CHECK(meant("edit", "flie_path") == "file_path");  // two neighbours swapped
    CHECK(meant("insert", "lines") == "line");
    CHECK(meant("write", "contents") == "content");
    CHECK(meant("read", "limt") == "limit");
    CHECK_FALSE(meant("edit", "olds"));  // `old` has three letters: only an exact (normalized) match counts
    CHECK_FALSE(meant("edit", "nw"));
    CHECK_FALSE(meant("edit", "replace"));  // three letters short of replace_all
}

TEST_CASE("unknown arguments: host bookkeeping and unrelated names are not misspellings") {
    CHECK_FALSE(meant("edit", "wait_for_previous"));
    CHECK_FALSE(meant("read", "wait_for_previous"));
    CHECK_FALSE(meant("read", "dry_run"));      // read has no dry_run: nothing to correct it to
    CHECK_FALSE(meant("write", "old_string"));  // write has no old_string
    CHECK_FALSE(meant("read", std::string(5000, 'x')));
    CHECK_FALSE(meant("read", ""));
}

TEST_CASE("unknown arguments: set aside, and the call goes on") {
    tools::Json args = {{"file_path", "a.txt"},
                        {"old_string", "a"},
                        {"new_string", "b"},
                        {"wait_for_previous", true},
                        {"x-trace-id", "42"}};
    const auto set_aside = registry().set_aside_unknown_arguments(tool("edit"), args);
    REQUIRE(set_aside.ok());
    const auto& outcome = set_aside.value();
    CHECK(outcome.ignored == std::vector<std::string>{"wait_for_previous", "x-trace-id"});
    CHECK(outcome.note == "Ignored arguments this tool does not take: wait_for_previous, x-trace-id.");
    CHECK(args == tools::Json{{"file_path", "a.txt"}, {"old_string", "a"}, {"new_string", "b"}});
    CHECK(registry().validate(tool("edit"), args).ok());
}

TEST_CASE("unknown arguments: none unknown, nothing changes") {
    tools::Json args = {{"file_path", "a.txt"}, {"limit", 3}};
    const tools::Json before = args;
    const auto set_aside = registry().set_aside_unknown_arguments(tool("read"), args);
    REQUIRE(set_aside.ok());
    const auto& outcome = set_aside.value();
    CHECK(outcome.ignored.empty());
    CHECK(outcome.note.empty());
    CHECK(args == before);
}

TEST_CASE("unknown arguments: a misspelling fails the call with the right name and what else is wrong") {
    tools::Json args = {{"file_path", "a.txt"},
                        {"old_strng", "a"},
                        {"new_string", "b"},
                        {"replaceAll", true},
                        {"wait_for_previous", true}};
    const auto set_aside = registry().set_aside_unknown_arguments(tool("edit"), args);
    REQUIRE_FALSE(set_aside.ok());
    CHECK(set_aside.error().reason == base::ErrorReason::invalid_arguments);
    const std::optional<std::string> error = set_aside.error().message;
    CHECK(mentions(error, "Invalid arguments for edit:"));
    CHECK(mentions(error, "`replaceAll` is not an argument of edit: did you mean `replace_all`?"));
    CHECK(mentions(error, "`old_strng` is not an argument of edit: did you mean `old_string`?"));
    CHECK(mentions(error, "at /old_string: missing (required)"));
    CHECK(mentions(error, "edit takes: "));
    CHECK_FALSE(mentions(error, "wait_for_previous"));
}

TEST_CASE("unknown arguments: an alias given beside its canonical name is named as a duplicate") {
    tools::Json args = {{"file_path", "a.txt"}, {"path", "b.txt"}};
    tools::Registry::apply_aliases(args);  // keeps `path`: file_path is already there
    const auto outcome = registry().set_aside_unknown_arguments(tool("read"), args);
    REQUIRE_FALSE(outcome.ok());
    CHECK(mentions(
        outcome.error().message,
        "`path` is not an argument of read; it looks like `file_path`, which is also given: send only `file_path`"));
}

TEST_CASE("unknown arguments: at most max_unknown_arguments are examined") {
    tools::Json args = {{"file_path", "a.txt"}};
    for (std::size_t i = 0; i <= tools::Registry::max_unknown_arguments; ++i)
        args["host_field_" + std::to_string(i)] = i;
    const auto outcome = registry().set_aside_unknown_arguments(tool("read"), args);
    REQUIRE_FALSE(outcome.ok());
    CHECK(mentions(outcome.error().message, "33 arguments that read does not take (more than 32)"));
    tools::Json few = {{"file_path", "a.txt"}};
    for (std::size_t i = 0; i < tools::Registry::max_unknown_arguments; ++i) few["host_field_" + std::to_string(i)] = i;
    const auto fine = registry().set_aside_unknown_arguments(tool("read"), few);
    REQUIRE(fine.ok());
    CHECK(fine.value().ignored.size() == tools::Registry::max_unknown_arguments);
    CHECK(few == tools::Json{{"file_path", "a.txt"}});
}

TEST_CASE("unknown arguments: long names are cut on a character boundary in messages") {
    tools::Json args = {{"file_path", "a.txt"}};
    const std::string long_name = std::string(63, 'a') + "é" + std::string(100, 'b');
    for (std::size_t i = 0; i <= tools::Registry::max_unknown_arguments; ++i) args[long_name + std::to_string(i)] = i;
    const auto outcome = registry().set_aside_unknown_arguments(tool("read"), args);
    REQUIRE_FALSE(outcome.ok());
    CHECK(mentions(outcome.error().message, std::string(63, 'a') + "…`"));
    CHECK_NOTHROW((void)tools::Json(outcome.error().message).dump());
}

TEST_CASE("validation: valijson's findings for top-level arguments, in plain words and in a fixed order") {
    const auto findings = [](std::string_view name, const tools::Json& args) {
        const auto valid = registry().validate(tool(name), args);
        REQUIRE_FALSE(valid.ok());
        CHECK(valid.error().reason == base::ErrorReason::invalid_arguments);
        const std::string& message = valid.error().message;
        const std::string first = message.substr(0, message.rfind('\n'));  // without "<tool> takes: ..."
        return first.substr(first.find('\n') + 1);                         // without "Invalid arguments for ..."
    };
    CHECK(findings("edit", {{"file_path", 5}, {"old_string", "a"}}) ==
          "- at /new_string: missing (required)\n- at /file_path: expected string, got integer 5");
    CHECK(findings("apply_diff", {{"diff", "x"}, {"fuzzy_threshold", 0.2}}) ==
          "- at /fuzzy_threshold: must be at least 0.5, got 0.2");
    CHECK(
        findings("multiedit",
                 {{"file_path", "a"}, {"edits", {{{"old_string", "a"}, {"new_string", "b"}}}}, {"against", "later"}}) ==
        "- at /against: must be one of [\"previous\",\"original\"], got \"later\"");
    CHECK(findings("read", {{"file_path", "a"}, {"bogus", 1}, {"limit", "x"}}) ==
          "- at /bogus: unknown argument\n- at /limit: expected integer, got string \"x\"");
    CHECK(findings("multiedit", {{"file_path", "a"}, {"edits", {{{"old_string", "a"}}}}}) ==
          "- at /edits/0: Missing required property 'new_string'.");
}
