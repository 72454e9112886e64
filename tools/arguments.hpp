// Each tool's arguments as a typed struct, read from the call's JSON once (schemas/<tool>.json
// describes the same fields). The registry validates the JSON against the schema before a tool
// runs, so reading it here cannot fail on shape; a missing optional field keeps its default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tools {

struct ReadArgs {
    std::string file_path;                // "" when not given (then file_paths)
    std::vector<std::string> file_paths;  // several files in one call
    std::int64_t offset = 1;
    std::int64_t limit = 2000;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReadArgs, file_path, file_paths, offset, limit)

struct EditArgs {
    std::string file_path;
    std::string old_string;
    std::string new_string;
    bool replace_all = false;
    std::int64_t expected_replacements = 0;  // 0: not given; else the places old_string must match
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(EditArgs, file_path, old_string, new_string, replace_all,
                                                expected_replacements, dry_run)

// One element of multiedit's `edits`.
struct OneEdit {
    std::string old_string;
    std::string new_string;
    bool replace_all = false;
    std::int64_t expected_replacements = 0;  // 0: not given
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(OneEdit, old_string, new_string, replace_all, expected_replacements)

// What multiedit's edits are located on: the result of the edit before, or the file as it was.
enum class Against { previous, original };
NLOHMANN_JSON_SERIALIZE_ENUM(Against, {{Against::previous, "previous"}, {Against::original, "original"}})

struct MultieditArgs {
    std::string file_path;
    std::vector<OneEdit> edits;
    Against against = Against::previous;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MultieditArgs, file_path, edits, against, dry_run)

struct WriteArgs {
    std::string file_path;
    std::string content;
    bool create_only = false;  // refuse an existing file
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WriteArgs, file_path, content, create_only, dry_run)

struct InsertArgs {
    std::string file_path;
    long long line = 0;
    std::string text;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(InsertArgs, file_path, line, text, dry_run)

struct ApplyDiffArgs {
    std::string file_path;  // "" when not given (the patch names its files)
    std::string diff;
    std::optional<double> fuzzy_threshold;  // nullopt: the server's --fuzzy-threshold
    bool dry_run = false;
};
inline void from_json(const nlohmann::json& j, ApplyDiffArgs& out) {
    out.file_path = j.value("file_path", std::string());
    out.diff = j.at("diff").get<std::string>();
    if (const auto it = j.find("fuzzy_threshold"); it != j.end()) out.fuzzy_threshold = it->get<double>();
    out.dry_run = j.value("dry_run", false);
}
inline void to_json(nlohmann::json& j, const ApplyDiffArgs& in) {
    j = {{"file_path", in.file_path}, {"diff", in.diff}, {"dry_run", in.dry_run}};
    j["fuzzy_threshold"] = in.fuzzy_threshold ? nlohmann::json(*in.fuzzy_threshold) : nlohmann::json();
}

struct UndoArgs {
    std::string file_path;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(UndoArgs, file_path, dry_run)

struct ChangesArgs {
    std::string file_path;  // "" for every file
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ChangesArgs, file_path)

struct ListArgs {
    std::string path;  // "" = the first root
    std::int64_t depth = 2;
    bool include_hidden = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ListArgs, path, depth, include_hidden)

struct FindArgs {
    std::string pattern;
    std::string path;            // "" = the first root
    std::string sort = "path";   // or "modified"
    std::int64_t max_results = 200;
    bool include_hidden = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FindArgs, pattern, path, sort, max_results, include_hidden)

struct GrepArgs {
    std::string pattern;
    std::string path;  // "" = the first root; a folder or one file
    std::string glob;  // "" = every file
    bool literal = false;
    bool case_insensitive = false;
    std::int64_t context = 0;
    std::int64_t max_results = 200;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GrepArgs, pattern, path, glob, literal, case_insensitive, context,
                                                max_results)

struct MoveArgs {
    std::string from;
    std::string to;
    bool overwrite = false;  // replace a file that exists at `to`
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MoveArgs, from, to, overwrite, dry_run)

struct DeleteArgs {
    std::string file_path;
    bool dry_run = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeleteArgs, file_path, dry_run)

// The review view's decision (served by the server's session, which holds the pending changes).
struct ReviewArgs {
    std::string review;
    std::string token;
    std::string decision;
    std::string feedback;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReviewArgs, review, token, decision, feedback)

}  // namespace tools
