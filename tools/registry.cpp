// Registry: schemas -> tool definitions, alias mapping, valijson validation, handler lookup.
#include "tools/registry.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "tools/schema_table.hpp"

namespace tools {

struct ToolDefinition {
    std::string name;
    Json definition;  // as served by tools/list
    valijson::Schema input_schema;
    Handler handler;
    std::string arguments_summary;  // "file_path (string, required), offset (integer), ..."
};

namespace {

struct KnownTool {
    std::string_view name;
    Handler (*make_handler)();
};

// The contract's order. A tool appears in tools/list only once it has a handler here.
constexpr std::array<KnownTool, 7> known_tools = {{
    {"read", &read_handler},
    {"edit", &edit_handler},
    {"multiedit", &multiedit_handler},
    {"write", &write_handler},
    {"insert", &insert_handler},
    {"apply_diff", &apply_diff_handler},
    {"undo", &undo_handler},
}};

std::string summarize_arguments(const Json& input_schema) {
    std::string out;
    const auto props = input_schema.find("properties");
    if (props == input_schema.end() || !props->is_object()) return out;
    const Json required = input_schema.value("required", Json::array());
    for (const auto& [key, prop] : props->items()) {
        if (!out.empty()) out += ", ";
        out += key;
        std::string type = prop.contains("type") && prop["type"].is_string() ? prop["type"].get<std::string>() : "any";
        bool is_required = false;
        for (const auto& r : required) is_required = is_required || r == key;
        out += " (" + type + (is_required ? ", required" : "") + ")";
    }
    return out;
}

std::string json_pointer(const std::vector<std::string>& context) {
    // valijson contexts look like {"<root>", "[file_path]", "[0]"}.
    std::string out;
    for (const auto& part : context) {
        if (part == "<root>") continue;
        std::string token = part;
        if (token.size() >= 2 && token.front() == '[' && token.back() == ']') token = token.substr(1, token.size() - 2);
        if (token.size() >= 2 && token.front() == '"' && token.back() == '"') token = token.substr(1, token.size() - 2);
        std::string escaped;
        for (char c : token) {
            if (c == '~') escaped += "~0";
            else if (c == '/') escaped += "~1";
            else escaped += c;
        }
        out += "/" + escaped;
    }
    return out.empty() ? "/" : out;
}

}  // namespace

Registry::Registry() : list_(Json::array()) {
    const auto& schemas = embedded_schemas();
    for (const auto& known : known_tools) {
        const EmbeddedSchema* found = nullptr;
        for (const auto& s : schemas)
            if (s.name == known.name) found = &s;
        if (!found) throw std::runtime_error("no schema file schemas/" + std::string(known.name) + ".json");
        auto def = std::make_unique<ToolDefinition>();
        def->name = std::string(known.name);
        Json file = Json::parse(found->text);
        def->definition = Json::object();
        def->definition["name"] = def->name;
        for (auto& [key, value] : file.items()) def->definition[key] = value;
        const Json& input = def->definition.at("inputSchema");
        if (input.value("type", "") != "object")
            throw std::runtime_error("schemas/" + def->name + ".json: inputSchema.type must be \"object\"");
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::NlohmannJsonAdapter adapter(input);
        parser.populateSchema(adapter, def->input_schema);
        def->arguments_summary = summarize_arguments(input);
        def->handler = known.make_handler();
        list_.push_back(def->definition);
        tools_.push_back(std::move(def));
    }
}

Registry::~Registry() = default;

std::vector<std::string> Registry::names() const {
    std::vector<std::string> out;
    for (const auto& t : tools_) out.push_back(t->name);
    return out;
}

const ToolDefinition* Registry::find(std::string_view name) const {
    for (const auto& t : tools_)
        if (t->name == name) return t.get();
    return nullptr;
}

const Handler& Registry::handler(const ToolDefinition& tool) const { return tool.handler; }

void Registry::apply_aliases(Json& args) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> aliases = {{
        {"path", "file_path"},
        {"filePath", "file_path"},
        {"oldText", "old_string"},
        {"old_str", "old_string"},
        {"old", "old_string"},
        {"newText", "new_string"},
        {"new_str", "new_string"},
        {"new", "new_string"},
        {"file_text", "content"},
    }};
    auto rename = [](Json& obj) {
        if (!obj.is_object()) return;
        for (const auto& [alias, canonical] : aliases) {
            const auto it = obj.find(std::string(alias));
            if (it == obj.end() || obj.contains(std::string(canonical))) continue;
            Json value = std::move(*it);
            obj.erase(std::string(alias));
            obj[std::string(canonical)] = std::move(value);
        }
    };
    rename(args);
    if (auto edits = args.find("edits"); edits != args.end() && edits->is_array())
        for (auto& e : *edits) rename(e);
}

namespace {

std::string json_type_name(const Json& v) {
    if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
    if (v.is_number_float()) return "number";
    return v.type_name();
}

bool type_matches(const std::string& type, const Json& v) {
    if (type == "integer") return v.is_number_integer() || v.is_number_unsigned();
    if (type == "number") return v.is_number();
    if (type == "string") return v.is_string();
    if (type == "boolean") return v.is_boolean();
    if (type == "array") return v.is_array();
    if (type == "object") return v.is_object();
    return true;
}

std::string excerpt(const Json& v) {
    std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    return text;
}

// Plain-words findings for the top-level arguments: missing, unknown, wrong type, below minimum,
// not one of an enum. Deeper problems are left to the validator's own words.
std::vector<std::string> explain(const Json& schema, const Json& args) {
    std::vector<std::string> out;
    const Json props = schema.value("properties", Json::object());
    for (const auto& r : schema.value("required", Json::array()))
        if (r.is_string() && !args.contains(r.get<std::string>()))
            out.push_back("at /" + r.get<std::string>() + ": missing (required)");
    for (const auto& [key, value] : args.items()) {
        const auto p = props.find(key);
        if (p == props.end()) {
            if (schema.value("additionalProperties", true) == false) out.push_back("at /" + key + ": unknown argument");
            continue;
        }
        const std::string type = p->value("type", "");
        if (!type.empty() && !type_matches(type, value)) {
            out.push_back("at /" + key + ": expected " + type + ", got " + json_type_name(value) + " " + excerpt(value));
            continue;
        }
        if (const auto min = p->find("minimum"); min != p->end() && value.is_number() && value.get<double>() < min->get<double>())
            out.push_back("at /" + key + ": must be at least " + min->dump() + ", got " + value.dump());
        if (const auto e = p->find("enum"); e != p->end() && std::find(e->begin(), e->end(), value) == e->end())
            out.push_back("at /" + key + ": must be one of " + e->dump() + ", got " + excerpt(value));
    }
    return out;
}

}  // namespace

std::optional<std::string> Registry::validate(const ToolDefinition& tool, const Json& args) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(args);
    if (validator.validate(tool.input_schema, target, &results)) return std::nullopt;
    std::string message = "Invalid arguments for " + tool.name + ":";
    std::vector<std::string> findings = explain(tool.definition.at("inputSchema"), args);
    if (findings.empty()) {
        valijson::ValidationResults::Error error;
        while (results.popError(error) && findings.size() < 8) {
            // valijson adds an umbrella error for each parent ("Failed to validate ..."): skip those.
            if (error.description.rfind("Failed to validate", 0) == 0) continue;
            findings.push_back("at " + json_pointer(error.context) + ": " + error.description);
        }
        if (findings.empty()) findings.push_back("at /: the arguments do not match the tool's inputSchema");
    }
    for (const auto& f : findings) message += "\n- " + f;
    message += "\n" + tool.name + " takes: " + tool.arguments_summary + ".";
    return message;
}

}  // namespace tools
