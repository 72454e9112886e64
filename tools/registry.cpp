// Registry: schemas -> tool definitions, alias mapping, unknown arguments set aside or refused as
// misspellings or as safety conditions not honoured, valijson validation, handler lookup.
#include "tools/registry.hpp"
#include "tools/registry_messages.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <cctype>
#include <stdexcept>
#include <string>
#include <vector>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "protocol/jsonrpc.hpp"
#include "tools/catalog.hpp"
#include "tools/argument_findings.hpp"
#include "tools/schema_table.hpp"

namespace tools {

struct ToolDefinition {
    std::string name;
    const ToolSpec* spec = nullptr;
    const Json* input_schema_json = nullptr;  // its inputSchema, in the registry's list (set once all are loaded)
    valijson::Schema input_schema;
    std::string arguments_summary;            // "file_path (string, required), offset (integer), ..."
    std::vector<std::string> argument_names;  // the inputSchema's top-level properties
};

namespace {

// The names agents often send instead of the canonical ones, mapped before validation.
constexpr std::array<std::pair<std::string_view, std::string_view>, 9> aliases = {{
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

// A schema file's text, embedded at build time ("" when there is none).
std::string_view embedded_schema(std::string_view name) {
    for (const auto& s : embedded_schemas())
        if (s.name == name) return s.text;
    return {};
}

// An outputSchema written as {"$ref": "change_report.json", "properties": {...}}: the shared
// schema in that file (schemas/change_report.json: what every change reports), with the tool's
// own properties added. Clients do not resolve references across files: tools/list serves it whole.
void resolve_shared_schema(Json& schema, const std::string& tool) {
    const auto ref = schema.find("$ref");
    if (!schema.is_object() || ref == schema.end() || !ref->is_string()) return;
    const std::string file = ref->get<std::string>();
    const std::string_view text = file.ends_with(".json") ? embedded_schema(file.substr(0, file.size() - 5)) : "";
    if (text.empty())
        throw std::runtime_error("schemas/" + tool + ".json: its outputSchema refers to schemas/" + file +
                                 ", which is not there");
    Json shared = Json::parse(text);
    for (auto& [key, value] : schema.items()) {
        if (key == "$ref") continue;
        if (key != "properties") {
            shared[key] = std::move(value);
            continue;
        }
        for (auto& [name, property] : value.items()) {
            if (shared["properties"].contains(name))
                throw std::runtime_error("schemas/" + tool + ".json: its outputSchema redefines " + name +
                                         " of schemas/" + file);
            shared["properties"][name] = std::move(property);
        }
    }
    schema = std::move(shared);
}

}  // namespace

Registry::Registry(OnBroken on_broken) : Registry(served_tools(), std::move(on_broken)) {}

Registry::Registry(std::vector<const ToolSpec*> tools, OnBroken on_broken)
    : specs_(std::move(tools)), list_(Json::array()), on_broken_(std::move(on_broken)) {}

void Registry::start_loading() const {
    std::call_once(loading_started_, [this] {
        loaded_ = std::async(std::launch::async, [this] {
                      try {
                          load();
                      } catch (const std::exception& e) {
                          if (on_broken_) on_broken_(e);
                          throw;
                      }
                  }).share();
    });
}

// A tool appears in tools/list only once it is added here.
void Registry::load() const {
    for (const ToolSpec* spec : specs_) add(*spec);
    // The list is complete: its elements stay where they are from here on.
    for (std::size_t i = 0; i < tools_.size(); ++i) tools_[i]->input_schema_json = &list_[i].at("inputSchema");
}

std::string Registry::fields_mismatch(const Json& input_schema, const std::vector<std::string>& fields) {
    std::set<std::string> in_schema;
    if (const auto props = input_schema.find("properties"); props != input_schema.end() && props->is_object())
        for (const auto& [key, prop] : props->items()) in_schema.insert(key);
    const std::set<std::string> in_struct(fields.begin(), fields.end());
    std::string schema_only, struct_only;
    for (const auto& key : in_schema)
        if (!in_struct.count(key)) schema_only += (schema_only.empty() ? "" : ", ") + key;
    for (const auto& key : in_struct)
        if (!in_schema.count(key)) struct_only += (struct_only.empty() ? "" : ", ") + key;
    if (schema_only.empty() && struct_only.empty()) return "";
    std::string out;
    if (!schema_only.empty()) out += "in the schema only: " + schema_only;
    if (!struct_only.empty())
        out += std::string(out.empty() ? "" : "; ") + "in the arguments struct only: " + struct_only;
    return out;
}

void Registry::add(const ToolSpec& spec) const {
    std::string_view schema = spec.schema.empty() ? embedded_schema(spec.name) : std::string_view(spec.schema);
    if (schema.empty()) throw std::runtime_error("no schema file schemas/" + spec.name + ".json");
    auto def = std::make_unique<ToolDefinition>();
    def->name = spec.name;
    def->spec = &spec;
    // As served by tools/list: the file's object and the tool's name (the file's own "name", if it
    // had one, would win). Built in place and moved into the list: no copy of it is made.
    Json definition = Json::parse(schema);
    definition.emplace("name", def->name);
    if (const auto output = definition.find("outputSchema"); output != definition.end())
        resolve_shared_schema(*output, def->name);
    const Json& input = definition.at("inputSchema");
    if (input.value("type", "") != "object")
        throw std::runtime_error("schemas/" + def->name + ".json: inputSchema.type must be \"object\"");
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(input);
    parser.populateSchema(adapter, def->input_schema);
    if (const std::string mismatch = fields_mismatch(input, spec.fields); !mismatch.empty())
        throw std::runtime_error("schemas/" + def->name +
                                 ".json and the tool's arguments struct disagree: " + mismatch);
    def->arguments_summary = summarize_arguments(input);
    if (const auto props = input.find("properties"); props != input.end() && props->is_object())
        for (const auto& [key, prop] : props->items()) def->argument_names.push_back(key);
    list_.push_back(std::move(definition));
    tools_.push_back(std::move(def));
}

Registry::~Registry() {
    if (loaded_.valid()) loaded_.wait();
}

std::vector<std::string> Registry::names() const {
    ready();
    std::vector<std::string> out;
    for (const auto& t : tools_) out.push_back(t->name);
    return out;
}

const ToolDefinition* Registry::find(std::string_view name) const {
    ready();
    for (const auto& t : tools_)
        if (t->name == name) return t.get();
    return nullptr;
}

const Handler& Registry::handler(const ToolDefinition& tool) const { return tool.spec->handler; }

const ToolSpec& Registry::spec(const ToolDefinition& tool) { return *tool.spec; }

void Registry::apply_aliases(Json& args, const ToolDefinition* tool) {
    auto rename = [tool](Json& obj) {
        if (!obj.is_object()) return;
        for (const auto& [alias, canonical] : aliases) {
            if (tool && std::find(tool->argument_names.begin(), tool->argument_names.end(), alias) !=
                            tool->argument_names.end())
                continue;  // the tool's own argument (list's and find's `path`), not an alias
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

// What valijson finds wrong with `args` (empty when they conform): argument_findings.hpp.
std::vector<std::string> validation_findings(const ToolDefinition& tool, const Json& args) {
    return argument_findings(tool.input_schema, *tool.input_schema_json, args);
}

std::string invalid_arguments_message(const ToolDefinition& tool, const std::vector<std::string>& findings) {
    return tools::invalid_arguments_message(tool.name, findings, tool.arguments_summary);
}

// The form names are compared in: ASCII lower case, without `_` and `-` ("replaceAll" and
// "replace_all" both become "replaceall").
std::string comparable(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (const char c : name) {
        if (c == '_' || c == '-') continue;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

// Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a` into `b`; both
// are short (the caller skips names whose lengths differ by more than it tolerates).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    constexpr std::size_t max_length = 80;
    if (a.size() > max_length || b.size() > max_length) return std::max(a.size(), b.size());
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

// How many edits still make `unknown` a misspelling of a name of this (comparable) length: none
// for names of three letters or fewer (`old`, `new`), one up to seven, two beyond.
std::size_t tolerated_edits(std::size_t known_length) {
    if (known_length <= 3) return 0;
    return known_length <= 7 ? 1 : 2;
}

// Words in an unknown argument's name that speak of a safety condition (compared in comparable()
// form, as substrings): such an argument is refused rather than dropped, since running the call
// without it could do what the caller meant to prevent.
constexpr std::array<std::string_view, 10> safety_words = {"dry",     "preview", "expect", "only",  "overwrite",
                                                           "clobber", "confirm", "force",  "check", "verify"};

bool speaks_of_safety(std::string_view name) {
    const std::string c = comparable(name);
    return std::any_of(safety_words.begin(), safety_words.end(),
                       [&](std::string_view w) { return c.find(w) != std::string::npos; });
}

}  // namespace

std::optional<std::string> Registry::likely_meant(const ToolDefinition& tool, std::string_view unknown) {
    // Longer than any argument name by far: nothing it could be a misspelling of.
    constexpr std::size_t max_compared = 64;
    if (unknown.size() > max_compared) return std::nullopt;
    const std::string wanted = comparable(unknown);
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    auto consider = [&](std::string_view known, const std::string& canonical) {
        const std::string candidate = comparable(known);
        const std::size_t tolerated = tolerated_edits(candidate.size());
        const std::size_t gap =
            candidate.size() > wanted.size() ? candidate.size() - wanted.size() : wanted.size() - candidate.size();
        if (gap > tolerated) return;
        const std::size_t distance = edit_distance(wanted, candidate);
        if (distance > tolerated || (best && distance >= best_distance)) return;
        best = canonical;
        best_distance = distance;
    };
    for (const auto& name : tool.argument_names) consider(name, name);
    for (const auto& [alias, canonical] : aliases) {
        const std::string target(canonical);
        if (std::find(tool.argument_names.begin(), tool.argument_names.end(), target) != tool.argument_names.end())
            consider(alias, target);
    }
    return best;
}

base::Result<UnknownArguments> Registry::set_aside_unknown_arguments(const ToolDefinition& tool, Json& args) const {
    UnknownArguments out;
    if (!args.is_object()) return out;
    std::vector<std::string> unknown;
    std::size_t unknown_count = 0;
    for (const auto& [key, value] : args.items()) {
        if (std::find(tool.argument_names.begin(), tool.argument_names.end(), key) != tool.argument_names.end())
            continue;
        if (++unknown_count <= max_unknown_arguments) unknown.push_back(key);
    }
    if (unknown.empty()) return out;
    if (unknown_count > max_unknown_arguments)
        return base::fail(base::Failure{
            invalid_arguments_message(
                tool, {too_many_unknown_arguments(tool.name, unknown_count, max_unknown_arguments, unknown)}),
            base::ErrorReason::invalid_arguments});

    std::vector<std::string> findings;
    for (const auto& key : unknown) {
        const auto meant = likely_meant(tool, key);
        if (!meant) {
            if (const std::string honoured(tool.spec->traits.safety_arguments);
                !honoured.empty() && speaks_of_safety(key)) {
                findings.push_back(unsafe_unknown_argument(key, tool.name, honoured));
                continue;
            }
            out.ignored.push_back(key);
            continue;
        }
        findings.push_back(args.contains(*meant) ? unknown_argument_also_given(key, tool.name, *meant)
                                                 : unknown_argument_did_you_mean(key, tool.name, *meant));
    }
    if (findings.empty()) {
        for (const auto& key : out.ignored) args.erase(key);
        out.note = ignored_arguments_note(out.ignored);
        return out;
    }
    // The call fails: say at once what else is wrong with the arguments the tool does take.
    Json rest = args;
    for (const auto& key : unknown) rest.erase(key);
    for (auto& f : validation_findings(tool, rest)) findings.push_back(std::move(f));
    return base::fail(base::Failure{invalid_arguments_message(tool, findings), base::ErrorReason::invalid_arguments});
}

std::string Registry::decode_stringified_arguments(const ToolDefinition& tool, Json& args) const {
    if (!args.is_object()) return "";
    const auto props = tool.input_schema_json->find("properties");
    if (props == tool.input_schema_json->end() || !props->is_object()) return "";
    std::string decoded;
    for (auto& [key, value] : args.items()) {
        if (!value.is_string()) continue;
        const auto prop = props->find(key);
        if (prop == props->end() || !prop->is_object()) continue;
        const std::string wanted = prop->value("type", "");
        if (wanted != "array" && wanted != "object") continue;
        const std::string& text = value.get_ref<const std::string&>();
        // As deep as a request may nest (protocol::ParseLimits), so parsing cannot run deep.
        if (protocol::nesting_depth(text, protocol::ParseLimits{}.max_depth) > protocol::ParseLimits{}.max_depth)
            continue;
        Json held = Json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (held.is_discarded() || (wanted == "array" ? !held.is_array() : !held.is_object())) continue;
        value = std::move(held);
        decoded += (decoded.empty() ? "`" : ", `") + key + "`";
    }
    if (decoded.empty()) return "";
    return stringified_arguments_note(decoded);
}

base::Result<void> Registry::validate(const ToolDefinition& tool, const Json& args) const {
    std::vector<std::string> findings = validation_findings(tool, args);
    if (findings.empty()) return {};
    return base::fail(base::Failure{invalid_arguments_message(tool, findings), base::ErrorReason::invalid_arguments});
}

}  // namespace tools
