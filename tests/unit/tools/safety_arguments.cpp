// Unit tests of the safety arguments other agents' tools take, honoured here rather than dropped:
// expected_replacements (edit, multiedit), create_only and its peers (write), preview as dry_run;
// an unknown argument whose name speaks of safety refused on a tool that changes files; and undo of
// this server's own change to a file an ignore rule covers since.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "os/ignore_files.hpp"
#include "tests/unit/tools/fixture.hpp"
#include "tools/pipeline/call_shapes.hpp"
#include "tools/workbench.hpp"
#include "ledger/history.hpp"

using namespace tools_test;

namespace {

// The arguments as the server prepares them before a handler runs (tools/workbench.hpp): call
// shapes, other agents' safety arguments, aliases, arguments the tool does not take, validation.
// The failure's message otherwise.
base::Result<Json, std::string> prepared(const std::string& tool, Json args) {
    static const tools::Registry registry;
    auto call = tools::prepare_call(registry, tool, std::move(args));
    if (!call) return base::fail(call.error());
    if (auto wrong = tools::check_arguments(registry, *call)) return base::fail(wrong->text);
    return call->args;
}

}  // namespace

TEST_CASE("edit: expected_replacements refuses a different count, with or without replace_all") {
    Fixture f;
    f.put("e.txt", "x = 1\nx = 1\nx = 1\n");
    for (const bool all : {true, false}) {
        const auto r = f.call(tools::edit_handler(), {{"file_path", f.path("e.txt")},
                                                      {"old_string", "x = 1"},
                                                      {"new_string", "x = 2"},
                                                      {"replace_all", all},
                                                      {"expected_replacements", 1}});
        INFO(r.text);
        REQUIRE(r.is_error);
        CHECK(r.reason == base::ErrorReason::ambiguous);
        CHECK(f.get("e.txt") == "x = 1\nx = 1\nx = 1\n");
    }
    const auto two = f.call(tools::edit_handler(), {{"file_path", f.path("e.txt")},
                                                    {"old_string", "x = 1"},
                                                    {"new_string", "x = 2"},
                                                    {"expected_replacements", 4}});
    REQUIRE(two.is_error);
    CHECK(has(two.text, "old_string matches 3 places in e.txt (lines 1, 2, 3), but expected_replacements is 4"));
    CHECK(two.reason == base::ErrorReason::not_found);
    // The count it names: every place replaced, replace_all or not.
    const auto ok = f.call(tools::edit_handler(), {{"file_path", f.path("e.txt")},
                                                   {"old_string", "x = 1"},
                                                   {"new_string", "x = 2"},
                                                   {"expected_replacements", 3}});
    INFO(ok.text);
    REQUIRE_FALSE(ok.is_error);
    CHECK(f.get("e.txt") == "x = 2\nx = 2\nx = 2\n");
    CHECK(ok.structured["replacements"] == 3);
    const auto one = f.call(tools::edit_handler(), {{"file_path", f.path("e.txt")},
                                                    {"old_string", "x = 2\nx = 2\nx = 2"},
                                                    {"new_string", "y"},
                                                    {"expected_replacements", 1}});
    CHECK_FALSE(one.is_error);
    CHECK(f.get("e.txt") == "y\n");
}

TEST_CASE("multiedit: expected_replacements of an edit is honoured, in order and against the original") {
    Fixture f;
    f.put("m.txt", "a\na\nb\n");
    for (const char* against : {"previous", "original"}) {
        const auto r = f.call(
            tools::multiedit_handler(),
            {{"file_path", f.path("m.txt")},
             {"against", against},
             {"edits",
              Json::array(
                  {{{"old_string", "b"}, {"new_string", "B"}},
                   {{"old_string", "a"}, {"new_string", "A"}, {"replace_all", true}, {"expected_replacements", 1}}})}});
        INFO(r.text);
        REQUIRE(r.is_error);
        CHECK(r.text.starts_with("edits[1] failed"));
        CHECK(has(r.text, "expected_replacements is 1"));
        CHECK(f.get("m.txt") == "a\na\nb\n");
    }
    const auto ok =
        f.call(tools::multiedit_handler(),
               {{"file_path", f.path("m.txt")},
                {"edits", Json::array({{{"old_string", "a"}, {"new_string", "A"}, {"expected_replacements", 2}}})}});
    CHECK_FALSE(ok.is_error);
    CHECK(f.get("m.txt") == "A\nA\nb\n");
}

TEST_CASE("write: create_only refuses an existing file (even one this session read) and creates a new one") {
    Fixture f;
    f.put("w.txt", "keep\n");
    f.read("w.txt");
    const auto r =
        f.call(tools::write_handler(), {{"file_path", f.path("w.txt")}, {"content", "gone\n"}, {"create_only", true}});
    INFO(r.text);
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::exists);
    CHECK(has(r.text, "already exists, and create_only"));
    CHECK(f.get("w.txt") == "keep\n");
    const auto fresh =
        f.call(tools::write_handler(), {{"file_path", f.path("new.txt")}, {"content", "new\n"}, {"create_only", true}});
    CHECK_FALSE(fresh.is_error);
    CHECK(f.get("new.txt") == "new\n");
}

TEST_CASE("other agents' safety arguments are read as ours: preview, overwrite: false, no_clobber, if_not_exists") {
    // A valid call of each tool that changes files (every required argument), with preview. (move
    // and delete, whose refusal of an unknown safety argument names `preview`, refused it before.)
    const std::vector<std::pair<std::string, Json>> calls = {
        {"edit", {{"file_path", "f.txt"}, {"old_string", "a"}, {"new_string", "b"}}},
        {"multiedit", {{"file_path", "f.txt"}, {"edits", Json::array({{{"old_string", "a"}, {"new_string", "b"}}})}}},
        {"write", {{"file_path", "f.txt"}, {"content", "x"}}},
        {"insert", {{"file_path", "f.txt"}, {"line", 1}, {"text", "x"}}},
        {"apply_diff", {{"file_path", "f.txt"}, {"diff", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"}}},
        {"undo", {{"file_path", "f.txt"}}},
        {"move", {{"from", "f.txt"}, {"to", "g.txt"}}},
        {"delete", {{"file_path", "f.txt"}}},
    };
    for (const auto& [tool, call] : calls) {
        CAPTURE(tool);
        Json args = call;
        args["preview"] = true;
        const auto out = prepared(tool, args);
        REQUIRE_MESSAGE(out.ok(), (out.ok() ? std::string() : out.error()));
        CHECK(out.value().value("dry_run", Json()) == true);
        CHECK_FALSE(out.value().contains("preview"));
    }
    const auto write = [](Json extra) {
        Json args = {{"file_path", "f.txt"}, {"content", "x"}};
        for (auto& [k, v] : extra.items()) args[k] = v;
        return prepared("write", args);
    };
    CHECK(write({{"overwrite", false}}).value().at("create_only") == true);
    CHECK(write({{"overwrite", true}}).value().at("create_only") == false);
    CHECK(write({{"no_clobber", true}}).value().at("create_only") == true);
    CHECK(write({{"if_not_exists", true}}).value().at("create_only") == true);
    CHECK(write({{"preview", true}}).value().at("dry_run") == true);
    const auto contradiction = write({{"overwrite", false}, {"create_only", false}});
    REQUIRE_FALSE(contradiction);
    CHECK(has(contradiction.error(), "contradict"));
    const auto not_bool = write({{"overwrite", "no"}});
    REQUIRE_FALSE(not_bool);
    CHECK(has(not_bool.error(), "`overwrite` must be true or false"));
}

TEST_CASE(
    "an unknown argument that speaks of safety is refused on a tool that changes files, named with what it honours") {
    for (const char* name : {"confirm_overwrite", "verifyFirst", "force", "expectedHash", "check_only", "dryRunMode"}) {
        const auto out = prepared("write", {{"file_path", "f.txt"}, {"content", "x"}, {name, true}});
        REQUIRE_FALSE(out);
        INFO(out.error());
        CHECK((has(out.error(), "speaks of a safety condition") || has(out.error(), "did you mean")));
    }
    const auto edit =
        prepared("edit", {{"file_path", "f.txt"}, {"old_string", "a"}, {"new_string", "b"}, {"expect_count", 2}});
    REQUIRE_FALSE(edit);
    CHECK(has(edit.error(), "edit honours `dry_run` (or `preview`), `expected_replacements`, `replace_all`"));
    // Host bookkeeping is still dropped; a tool that changes nothing drops what it does not take.
    CHECK(prepared("write", {{"file_path", "f.txt"}, {"content", "x"}, {"wait_for_previous", true}}));
    CHECK(prepared("read", {{"file_path", "f.txt"}, {"verify", true}}));
}

TEST_CASE("undo: this server's own change of a file ignored since is undone, unless --ignore-reads hides it") {
    for (const bool ignore_reads : {false, true}) {
        Fixture f;
        ledger::History history;
        f.ctx.history = &history;
        os::IgnoreSettings settings;
        settings.ignore_reads = ignore_reads;
        os::IgnoreFiles ignore(settings);
        f.ctx.ignore = &ignore;
        f.put("gen.txt", "one\n");
        f.put("other.txt", "x\n");
        const auto edited = f.call(tools::edit_handler(),
                                   {{"file_path", f.path("gen.txt")}, {"old_string", "one"}, {"new_string", "two"}});
        REQUIRE_FALSE(edited.is_error);
        f.put(".mcp-editignore", "gen.txt\nother.txt\n");
        const auto undone = f.call(tools::undo_handler(), {{"file_path", f.path("gen.txt")}});
        INFO(undone.text);
        if (ignore_reads) {
            CHECK(undone.is_error);
            CHECK(undone.reason == base::ErrorReason::ignored);
            CHECK(f.get("gen.txt") == "two\n");
        } else {
            CHECK_FALSE(undone.is_error);
            CHECK(f.get("gen.txt") == "one\n");
        }
        // A file this server never changed stays refused by the rule.
        const auto other = f.call(tools::undo_handler(), {{"file_path", f.path("other.txt")}});
        CHECK(other.is_error);
        CHECK(other.reason == base::ErrorReason::ignored);
    }
}
