// Arguments that do not conform to a tool's inputSchema, in words a model acts on: valijson's
// findings for the top-level arguments (missing, unknown, wrong type, below minimum, not one of an
// enum) said plainly, and deeper ones in the validator's own words at their JSON pointer.
#include "tools/argument_findings.hpp"

#include <set>
#include <string_view>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validator.hpp>

#include "protocol/jsonrpc.hpp"

namespace tools {

using Json = nlohmann::json;

namespace {

std::string json_pointer(const std::vector<std::string>& context) {
    // valijson contexts look like {"<root>", "[file_path]", "[0]"}.
    Json::json_pointer pointer;
    for (const auto& part : context) {
        if (part == "<root>") continue;
        std::string token = part;
        if (token.size() >= 2 && token.front() == '[' && token.back() == ']') token = token.substr(1, token.size() - 2);
        if (token.size() >= 2 && token.front() == '"' && token.back() == '"') token = token.substr(1, token.size() - 2);
        pointer /= token;
    }
    return pointer.empty() ? "/" : pointer.to_string();
}

std::string json_type_name(const Json& v) {
    if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
    if (v.is_number_float()) return "number";
    return v.type_name();
}

// Which constraints valijson found broken at the top level of the arguments.
struct TopLevelErrors {
    std::set<std::string> missing;  // required arguments not given
    bool unknown = false;           // some argument the schema does not list (additionalProperties)
    std::set<std::string> wrong_type, below_minimum, not_in_enum;
};

TopLevelErrors top_level_errors(const valijson::ValidationResults& results) {
    TopLevelErrors out;
    constexpr std::string_view missing = "Missing required property '";
    for (auto it = results.begin(); it != results.end(); ++it) {
        const auto& context = it->context;
        const std::string& what = it->description;
        if (context.size() == 1) {
            if (what.rfind(missing, 0) == 0 && what.size() >= missing.size() + 2)
                out.missing.insert(what.substr(missing.size(), what.size() - missing.size() - 2));
            else if (what.rfind("Object contains a property that could not be validated", 0) == 0)
                out.unknown = true;
            continue;
        }
        if (context.size() != 2 || context[1].size() < 2) continue;
        const std::string key = context[1].substr(1, context[1].size() - 2);  // "[key]"
        if (what == "Value type not permitted by 'type' constraint.")
            out.wrong_type.insert(key);
        else if (what.rfind("Expected number greater than or equal to", 0) == 0)
            out.below_minimum.insert(key);
        else if (what == "Failed to match against any enum values.")
            out.not_in_enum.insert(key);
    }
    return out;
}

// valijson's findings for the top-level arguments in plain words: missing, unknown, wrong type,
// below minimum, not one of an enum. Deeper problems are left to the validator's own words.
std::vector<std::string> explain(const Json& schema, const Json& args, const valijson::ValidationResults& results) {
    const TopLevelErrors errors = top_level_errors(results);
    std::vector<std::string> out;
    const Json props = schema.value("properties", Json::object());
    for (const auto& r : schema.value("required", Json::array()))
        if (r.is_string() && errors.missing.count(r.get<std::string>()))
            out.push_back("at /" + r.get<std::string>() + ": missing (required)");
    for (const auto& [key, value] : args.items()) {
        const auto p = props.find(key);
        if (p == props.end()) {
            if (errors.unknown) out.push_back("at /" + key + ": unknown argument");
            continue;
        }
        if (errors.wrong_type.count(key)) {
            out.push_back("at /" + key + ": expected " + p->value("type", "") + ", got " + json_type_name(value) + " " +
                          protocol::excerpt(value));
            continue;
        }
        if (errors.below_minimum.count(key))
            out.push_back("at /" + key + ": must be at least " + p->at("minimum").dump() + ", got " + value.dump());
        if (errors.not_in_enum.count(key))
            out.push_back("at /" + key + ": must be one of " + p->at("enum").dump() + ", got " +
                          protocol::excerpt(value));
    }
    return out;
}

}  // namespace

std::vector<std::string> argument_findings(const valijson::Schema& schema, const Json& schema_json, const Json& args) {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(args);
    if (validator.validate(schema, target, &results)) return {};
    std::vector<std::string> findings = explain(schema_json, args, results);
    if (findings.empty()) {
        valijson::ValidationResults::Error error;
        while (results.popError(error) && findings.size() < 8) {
            // valijson adds an umbrella error for each parent ("Failed to validate ..."): skip those.
            if (error.description.rfind("Failed to validate", 0) == 0) continue;
            findings.push_back("at " + json_pointer(error.context) + ": " + error.description);
        }
        if (findings.empty()) findings.push_back("at /: the arguments do not match the tool's inputSchema");
    }
    return findings;
}

}  // namespace tools
