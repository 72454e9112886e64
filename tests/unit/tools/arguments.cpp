// Ties each tool's two definitions of its arguments together: the properties of schemas/<tool>.json
// (what tools/list serves and the registry validates) and the fields its struct in arguments.hpp
// reads. The registry checks them when a tool is registered; this shows the check works.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tools/arguments.hpp"
#include "tools/registry.hpp"

namespace {

using Json = nlohmann::json;

std::set<std::string> keys_of(const Json& object) {
    std::set<std::string> out;
    for (const auto& [key, value] : object.items()) out.insert(key);
    return out;
}

// Every field a struct writes, so every field it reads (each struct's JSON is defined as a pair).
template <class Args>
std::set<std::string> fields_of() {
    return keys_of(Json(Args{}));
}

}  // namespace

TEST_CASE("arguments: every tool's schema properties are the fields of its arguments struct, both ways") {
    // The registry refuses, at construction, a tool whose struct and schema disagree (one
    // registration line per tool carries its struct): every served tool passed that check.
    std::unique_ptr<tools::Registry> registry;
    CHECK_NOTHROW(registry = std::make_unique<tools::Registry>());
    REQUIRE(registry);
    CHECK(registry->names().size() == registry->list().size());
    // The check itself: equal sets pass; a difference names both sides' extra names.
    const Json edit_schema = registry->list().at(1).at("inputSchema");
    REQUIRE(registry->list().at(1).at("name") == "edit");
    auto field_list = [](const std::set<std::string>& fields) { return std::vector<std::string>(fields.begin(), fields.end()); };
    CHECK(tools::Registry::fields_mismatch(edit_schema, field_list(fields_of<tools::EditArgs>())) == "");
    const std::string wrong = tools::Registry::fields_mismatch(edit_schema, field_list(fields_of<tools::MoveArgs>()));
    CHECK(wrong.find("in the schema only: ") != std::string::npos);
    CHECK(wrong.find("old_string") != std::string::npos);
    CHECK(wrong.find("in the arguments struct only: from, overwrite, to") != std::string::npos);
}

TEST_CASE("arguments: multiedit's edit items in the schema are the fields of OneEdit") {
    const tools::Registry registry;
    for (const Json& tool : registry.list()) {
        if (tool.at("name") != "multiedit") continue;
        CHECK(keys_of(tool.at("inputSchema").at("properties").at("edits").at("items").at("properties")) ==
              fields_of<tools::OneEdit>());
        return;
    }
    FAIL("multiedit is not served");
}

TEST_CASE("arguments: a call's JSON read into a struct and written back keeps every field") {
    const Json edit = {{"file_path", "a.txt"}, {"old_string", "x"}, {"new_string", "y"}, {"replace_all", true},
                       {"expected_replacements", 2}, {"dry_run", true}};
    CHECK(Json(edit.get<tools::EditArgs>()) == edit);
    const Json diff = {{"file_path", "a.txt"}, {"diff", "--- a/a.txt\n"}, {"fuzzy_threshold", 0.8}, {"dry_run", true}};
    CHECK(Json(diff.get<tools::ApplyDiffArgs>()) == diff);
}
