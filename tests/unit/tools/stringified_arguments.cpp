// Unit tests of arguments sent as JSON strings (issue 42, part 3): Claude Code sends multiedit's
// `edits` (and other clients read's `file_paths`) as a string holding the JSON array. Such a
// string is read as the array or object the schema asks for, with a note; anything else is
// refused by validation as before.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"
#include "tools/workbench.hpp"

using namespace tools_test;

namespace {

struct PreparedArguments {
    bool ok = false;
    Json args;
    std::string notes;  // the call's notes, joined
    std::string error;  // when not ok
};

// The call as the workbench prepares and checks it before a handler runs.
PreparedArguments prepare_and_check(const std::string& tool, Json args) {
    static const tools::Registry registry;
    PreparedArguments out;
    auto call = tools::prepare_call(registry, tool, std::move(args));
    REQUIRE(call);
    if (auto wrong = tools::check_arguments(registry, *call)) {
        out.error = wrong->text;
        return out;
    }
    out.ok = true;
    out.args = call->args;
    for (const auto& n : call->shape.notes) out.notes += n + "\n";
    return out;
}

}  // namespace

TEST_CASE("stringified arguments: multiedit's edits and read's file_paths sent as JSON strings are read as arrays") {
    const Json edits =
        Json::array({{{"old_string", "a"}, {"new_string", "b"}}, {{"old_string", "c"}, {"new_string", "d"}}});
    const auto multiedit = prepare_and_check("multiedit", {{"file_path", "f.txt"}, {"edits", edits.dump()}});
    REQUIRE_MESSAGE(multiedit.ok, multiedit.error);
    CHECK(multiedit.args.at("edits") == edits);
    CHECK(multiedit.notes.find("Read `edits`, sent as a JSON string, as the JSON value it holds") != std::string::npos);

    const auto read = prepare_and_check("read", {{"file_paths", R"(["a.txt", "b.txt"])"}});
    REQUIRE_MESSAGE(read.ok, read.error);
    CHECK(read.args.at("file_paths") == Json::array({"a.txt", "b.txt"}));
    CHECK(read.notes.find("Read `file_paths`") != std::string::npos);

    // Sent as arrays, nothing is noted.
    const auto plain = prepare_and_check("multiedit", {{"file_path", "f.txt"}, {"edits", edits}});
    REQUIRE(plain.ok);
    CHECK(plain.notes.empty());
}

TEST_CASE("stringified arguments: a string that holds no JSON, or JSON of another type, is refused as before") {
    const auto not_json = prepare_and_check("multiedit", {{"file_path", "f.txt"}, {"edits", "replace a with b"}});
    CHECK_FALSE(not_json.ok);
    CHECK(not_json.error.find("at /edits: expected array, got string") != std::string::npos);
    const auto object = prepare_and_check(
        "multiedit", {{"file_path", "f.txt"}, {"edits", R"({"old_string": "a", "new_string": "b"})"}});
    CHECK_FALSE(object.ok);
    CHECK(object.error.find("at /edits: expected array, got string") != std::string::npos);
    const auto one_path = prepare_and_check("read", {{"file_paths", "a.txt"}});
    CHECK_FALSE(one_path.ok);
    // The array's content is still validated: an edit without new_string is named.
    const auto incomplete =
        prepare_and_check("multiedit", {{"file_path", "f.txt"}, {"edits", R"([{"old_string": "a"}])"}});
    CHECK_FALSE(incomplete.ok);
    CHECK(incomplete.error.find("new_string") != std::string::npos);
    // Nested deeper than a request may be: not parsed.
    const auto deep = prepare_and_check("read", {{"file_paths", std::string(100, '[') + std::string(100, ']')}});
    CHECK_FALSE(deep.ok);
    // A string argument is never parsed: old_string holding JSON stays text.
    const auto text =
        prepare_and_check("edit", {{"file_path", "f.txt"}, {"old_string", "[1, 2]"}, {"new_string", "{}"}});
    REQUIRE(text.ok);
    CHECK(text.args.at("old_string") == "[1, 2]");
    CHECK(text.args.at("new_string") == "{}");
}

TEST_CASE("stringified arguments: a stringified edits list is applied through multiedit") {
    Fixture f;
    f.put("m.txt", "one\ntwo\n");
    const tools::Registry registry;
    tools::WorkbenchSettings settings;
    settings.fsync = false;
    tools::Workbench bench(f.io.get_executor(), f.io.get_executor(), registry, f.workspace, settings);
    const Json edits =
        Json::array({{{"old_string", "one"}, {"new_string", "ONE"}}, {{"old_string", "two"}, {"new_string", "TWO"}}});
    const auto out =
        run_call(f.io, bench.call("multiedit", {{"file_path", f.path("m.txt")}, {"edits", edits.dump()}}, {}));
    REQUIRE_MESSAGE(!out.is_error, out.text);
    CHECK(f.get("m.txt") == "ONE\nTWO\n");
    CHECK(out.text.find("Read `edits`, sent as a JSON string") != std::string::npos);
}
