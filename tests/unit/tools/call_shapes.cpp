// Unit tests of tools/call_shapes: other agents' call shapes (Anthropic's text editor, pi, Kimi,
// Roo's XML apply_diff, insert_line) mapped onto our tools, each mapping said in a note.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/pipeline/call_shapes.hpp"

namespace {

using Json = nlohmann::json;

std::string joined(const std::vector<std::string>& notes) {
    std::string out;
    for (const auto& n : notes) out += (out.empty() ? "" : " ") + n;
    return out;
}

// map_call_shape's answer, flattened for the checks below: the mapped call, or the failure's
// message (always reason invalid_arguments).
struct Mapped {
    std::string tool;
    std::vector<std::string> notes;
    std::optional<std::string> error;
};

Mapped map_shape(std::string_view tool, Json& args) {
    auto shape = tools::map_call_shape(tool, args);
    if (!shape) {
        CHECK(shape.error().reason == base::ErrorReason::invalid_arguments);
        return {"", {}, shape.error().message};
    }
    return {shape.value().tool, shape.value().notes, std::nullopt};
}

}  // namespace

TEST_CASE("call shapes: Anthropic's text-editor commands route to our tools") {
    Json args = {{"command", "str_replace"}, {"path", "a.txt"}, {"old_str", "x"}, {"new_str", "y"}};
    auto shape = map_shape("edit", args);
    CHECK(shape.tool == "edit");
    CHECK_FALSE(shape.error);
    CHECK_FALSE(args.contains("command"));
    CHECK(joined(shape.notes) == "Read `command: \"str_replace\"` as a call of edit.");

    args = {{"command", "str_replace"}, {"path", "a.txt"}, {"old_str", "x"}};
    shape = map_shape("read", args);
    CHECK(shape.tool == "edit");
    CHECK(args["new_string"] == "");

    args = {{"command", "create"}, {"path", "a.txt"}, {"file_text", "hi\n"}};
    CHECK(map_shape("edit", args).tool == "write");

    args = {{"command", "insert"}, {"path", "a.txt"}, {"insert_line", 2}, {"new_str", "z\n"}};
    shape = map_shape("edit", args);
    CHECK(shape.tool == "insert");
    CHECK(args == Json{{"path", "a.txt"}, {"line", 2}, {"text", "z\n"}});
    CHECK(joined(shape.notes) ==
          "Read `command: \"insert\"` as a call of insert. Read `insert_line` as `line`. Read `new_str` as `text`.");

    args = {{"command", "view"}, {"path", "a.txt"}, {"view_range", {3, 7}}};
    shape = map_shape("edit", args);
    CHECK(shape.tool == "read");
    CHECK(args == Json{{"path", "a.txt"}, {"offset", 3}, {"limit", 5}});
    args = {{"command", "view"}, {"path", "a.txt"}, {"view_range", {3, -1}}};
    map_shape("edit", args);
    CHECK(args == Json{{"path", "a.txt"}, {"offset", 3}});
    args = {{"command", "view"}, {"path", "a.txt"}, {"view_range", {7, 3}}};
    REQUIRE(map_shape("edit", args).error);

    args = {{"command", "undo_edit"}, {"path", "a.txt"}};
    CHECK(map_shape("edit", args).tool == "undo");

    args = {{"command", "delete"}, {"path", "a.txt"}};
    shape = map_shape("edit", args);
    REQUIRE(shape.error);
    CHECK(*shape.error ==
          "`command` \"delete\" is not a text-editor command this server knows: use str_replace, create, insert, "
          "view or undo_edit, or call edit, write, insert, read or undo with their own arguments.");
}

TEST_CASE("call shapes: edit with edits[] is multiedit; a top-level pair with it names the caller's names") {
    Json args = {{"path", "a.txt"}, {"edits", {{{"oldText", "a"}, {"newText", "b"}}}}};
    auto shape = map_shape("edit", args);
    CHECK(shape.tool == "multiedit");
    CHECK_FALSE(shape.error);
    // pi's shape (oldText/newText) means pi's semantics: every edit located on the original file.
    CHECK(args["against"] == "original");
    Json claude_like = {{"file_path", "a.txt"}, {"edits", {{{"old_string", "a"}, {"new_string", "b"}}}}};
    CHECK(map_shape("edit", claude_like).tool == "multiedit");
    CHECK_FALSE(claude_like.contains("against"));  // MultiEdit's shape: in order, each on the result before

    args = {{"path", "a.txt"}, {"oldText", "x"}, {"newText", "y"}, {"edits", {{{"oldText", "a"}, {"newText", "b"}}}}};
    shape = map_shape("edit", args);
    REQUIRE(shape.error);
    CHECK(shape.error->starts_with("edit got `oldText`/`newText` at the top level and a list in `edits`"));
    args = {{"file_path", "a.txt"}, {"old_string", "x"}, {"edits", Json::array()}};
    shape = map_shape("multiedit", args);
    REQUIRE(shape.error);
    CHECK(shape.error->starts_with("multiedit got `old_string` at the top level"));
}

TEST_CASE("call shapes: Kimi's `edit` key, one object or a list") {
    Json args = {{"path", "a.txt"}, {"edit", {{"old", "a"}, {"new", "b"}, {"replace_all", true}}}};
    auto shape = map_shape("edit", args);
    CHECK(shape.tool == "edit");
    CHECK(args == Json{{"path", "a.txt"}, {"old", "a"}, {"new", "b"}, {"replace_all", true}});
    CHECK(joined(shape.notes) == "Read the fields of `edit` as edit's own arguments.");

    args = {{"path", "a.txt"}, {"edit", {{{"old", "a"}, {"new", "b"}}, {{"old", "c"}, {"new", "d"}}}}};
    shape = map_shape("edit", args);
    CHECK(shape.tool == "multiedit");
    CHECK(args["edits"].size() == 2);
    CHECK(joined(shape.notes) ==
          "Read the list in `edit` as `edits`. Read edit with `edits` as multiedit (each edit "
          "applied in order on the result of the one before; all or nothing).");

    args = {{"path", "a.txt"}, {"edit", {{"old", "a"}, {"new", "b"}}}};
    shape = map_shape("multiedit", args);
    CHECK(args["edits"] == Json::array({{{"old", "a"}, {"new", "b"}}}));
}

TEST_CASE("call shapes: Roo's XML apply_diff") {
    const std::string xml =
        "<args>\n<file>\n  <path>src/a.txt</path>\n  <diff>\n    <content><![CDATA[<<<<<<< SEARCH\n-------\nbeta\n"
        "=======\nBETA\n>>>>>>> REPLACE]]></content>\n    <start_line>2</start_line>\n  </diff>\n"
        "  <diff><content>\n<<<<<<< SEARCH\n:start_line:9\n-------\nnine\n=======\nNINE\n>>>>>>> "
        "REPLACE\n</content></diff>\n"
        "</file>\n</args>";
    Json args = {{"args", xml}};
    auto shape = map_shape("apply_diff", args);
    REQUIRE_FALSE(shape.error);
    CHECK(args["file_path"] == "src/a.txt");
    CHECK(args["diff"] ==
          "<<<<<<< SEARCH\n:start_line:2\n-------\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n"
          "<<<<<<< SEARCH\n:start_line:9\n-------\nnine\n=======\nNINE\n>>>>>>> REPLACE\n");
    CHECK_FALSE(args.contains("args"));
    CHECK(joined(shape.notes) == "Read the XML in `args` as `file_path` and `diff`.");

    // Several files: the XML goes on as `diff`, read by apply_diff as one patch over them.
    args = {{"args",
             "<file><path>a</path><diff><content>x</content></diff></file><file><path>b</path><diff>y</diff></file>"}};
    shape = map_shape("apply_diff", args);
    REQUIRE_FALSE(shape.error);
    CHECK_FALSE(args.contains("args"));
    CHECK(args["diff"].get<std::string>().starts_with("<file><path>a</path>"));
    CHECK(joined(shape.notes) == "Read the XML in `args` as one apply_diff over its 2 files (all or nothing).");
    args = {{"file_path", "a"},
            {"diff", "<file><path>a</path><diff>x</diff></file><file><path>b</path><diff>y</diff></file>"}};
    REQUIRE(map_shape("apply_diff", args).error);

    args = {{"diff", "<file><path>a</path><diff><content>x</diff></file>"}};
    shape = map_shape("apply_diff", args);
    REQUIRE(shape.error);
    CHECK(shape.error->find("is not closed by `</content>`") != std::string::npos);

    args = {{"file_path", "a"}, {"diff", "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"}};
    shape = map_shape("apply_diff", args);
    CHECK_FALSE(shape.error);
    CHECK(shape.notes.empty());
}
