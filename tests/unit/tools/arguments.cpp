// Ties each tool's two definitions of its arguments together: the properties of schemas/<tool>.json
// (what tools/list serves and the registry validates) and the fields its struct in arguments.hpp reads.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>
#include <string>

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
    // One row per tool the registry serves; a tool added to the registry without a row fails below.
    const std::map<std::string, std::function<std::set<std::string>()>> structs = {
        {"read", fields_of<tools::ReadArgs>},         {"edit", fields_of<tools::EditArgs>},
        {"multiedit", fields_of<tools::MultieditArgs>}, {"write", fields_of<tools::WriteArgs>},
        {"insert", fields_of<tools::InsertArgs>},     {"apply_diff", fields_of<tools::ApplyDiffArgs>},
        {"undo", fields_of<tools::UndoArgs>},         {"changes", fields_of<tools::ChangesArgs>},
        {"list", fields_of<tools::ListArgs>},         {"find", fields_of<tools::FindArgs>},
        {"grep", fields_of<tools::GrepArgs>},
        {"move", fields_of<tools::MoveArgs>},         {"delete", fields_of<tools::DeleteArgs>},
    };
    const tools::Registry registry;
    std::size_t seen = 0;
    for (const Json& tool : registry.list()) {
        const std::string name = tool.at("name");
        CAPTURE(name);
        const auto row = structs.find(name);
        REQUIRE_MESSAGE(row != structs.end(), "no arguments struct listed for this tool");
        CHECK(keys_of(tool.at("inputSchema").at("properties")) == row->second());
        ++seen;
    }
    CHECK(seen == structs.size());
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
