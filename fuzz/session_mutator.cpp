// The session fuzz target's structure-aware mutator (session_inputs.hpp): valid messages of both
// eras, calls of every tool on the paths that have broken promises before, and type-confusing
// changes to them.
#include "fuzz/session_inputs.hpp"

#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"

namespace session_fuzz {

namespace {

using Json = nlohmann::json;

Json modern_meta(Rng& rng) {
    Json caps = pick(rng, 3) == 0 ? Json::object() : Json{{"elicitation", Json::object()}};
    return {{std::string(protocol::meta_protocol_version), std::string(protocol::modern_version)},
            {std::string(protocol::meta_client_capabilities), caps},
            {std::string(protocol::meta_client_info), {{"name", "fuzz"}, {"version", "1"}}}};
}

// A path a call names: mostly a.txt (in both roots), else an odd name, a file of the second root by
// its absolute path, one in a folder, one to create with a newline in its folder's name.
std::string some_path(Rng& rng) {
    switch (pick(rng, 8)) {
        case 0: return odd_names[pick(rng, odd_names.size())];
        case 1: return second_root_path() + "/a.txt";
        case 2: return "sub/c.txt";
        case 3: return "new\n+++ b/dir/" + odd_names[pick(rng, odd_names.size())];
        default: return "a.txt";
    }
}

Json tool_arguments(const std::string& tool, Rng& rng) {
    const bool dry = pick(rng, 2) == 0;
    const std::string path = some_path(rng);
    if (tool == "read") {
        if (pick(rng, 3) == 0) return {{"file_paths", {path, some_path(rng), "missing.txt"}}};
        return {{"file_path", path}, {"offset", 1}, {"limit", 2}};
    }
    if (tool == "edit")
        return {{"file_path", path},
                {"old_string", "one"},
                {"new_string", "uno"},
                {"replace_all", false},
                {"dry_run", dry}};
    if (tool == "multiedit")
        return {{"file_path", path},
                {"edits", {{{"old_string", "one"}, {"new_string", "1"}}, {{"old_string", "two"}, {"new_string", "2"}}}},
                {"dry_run", dry}};
    if (tool == "write")
        return {{"file_path", pick(rng, 2) ? std::string("c.txt") : path}, {"content", "new\n"}, {"dry_run", dry}};
    if (tool == "insert") return {{"file_path", path}, {"line", 0}, {"text", "zero"}, {"dry_run", dry}};
    if (tool == "apply_diff")
        return {
            {"file_path", path}, {"diff", "<<<<<<< SEARCH\ntwo\n=======\nzwei\n>>>>>>> REPLACE\n"}, {"dry_run", dry}};
    if (tool == "undo") return {{"file_path", path}, {"dry_run", dry}};
    if (tool == "move")
        return {{"from", path}, {"to", some_path(rng) + ".moved"}, {"overwrite", pick(rng, 2) == 0}, {"dry_run", dry}};
    if (tool == "delete") return {{"file_path", path}, {"dry_run", dry}};
    if (tool == "list") return {{"path", pick(rng, 2) ? std::string(".") : second_root_path()}};
    if (tool == "find") return {{"pattern", pick(rng, 2) ? "**/*.txt" : "{a,b,{c,d}}*"}};
    if (tool == "grep") return {{"pattern", pick(rng, 2) ? "one|two" : "(a+)+$"}, {"path", "."}};
    return {{"file_path", path}};  // changes
}

// Every place in `value` (JSON pointers), containers included.
void places(const Json& value, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
    out.push_back(at);
    if (value.is_object()) {
        for (const auto& [key, member] : value.items()) places(member, at / key, out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) places(value[i], at / i, out);
    }
}

// Text nlohmann cannot hold or would not write: numbers out of range, deep nesting, huge strings.
std::string raw_value(Rng& rng) {
    static const char* tokens[] = {"1e999",
                                   "-1e999",
                                   "18446744073709551616",
                                   "-0",
                                   "9223372036854775808",
                                   "-9223372036854775809",
                                   "1e-999",
                                   "-0.0",
                                   "0.1e+308",
                                   "123456789012345678901234567890"};
    switch (pick(rng, 4)) {
        case 0: return tokens[pick(rng, std::size(tokens))];
        case 1: {
            static const std::size_t depths[] = {10, 62, 63, 64, 65, 100};
            const std::size_t depth = depths[pick(rng, std::size(depths))];
            if (pick(rng, 2) == 0) return std::string(depth, '[') + std::string(depth, ']');
            std::string out;
            for (std::size_t i = 0; i < depth; ++i) out += "{\"a\":";
            return out + "1" + std::string(depth, '}');
        }
        case 2: {
            const std::size_t n = 500 + pick(rng, 3000);
            return "\"" + (pick(rng, 2) ? std::string(n, 'x') : [&] {
                std::string s;
                for (std::size_t i = 0; i < n / 6; ++i) s += "\\u0001";
                return s;
            }()) + "\"";
        }
        default: return "\"\\ud800\"";  // a lone surrogate
    }
}

Json other_type_value(Rng& rng) {
    switch (pick(rng, 12)) {
        case 0: return Json();
        case 1: return true;
        case 2: return false;
        case 3: return 0;
        case 4: return -1;
        case 5: return 1.5;
        case 6: return std::numeric_limits<std::uint64_t>::max();
        case 7: return "";
        case 8: return "apply";
        case 9: return Json::array();
        case 10: return Json::object();
        default: return Json{{"a", Json::array({1, "b", Json()})}};
    }
}

constexpr std::string_view raw_marker = "\x07raw\x07";
constexpr std::string_view dup_marker = "\x07dup\x07";

std::string replace_once(std::string text, const std::string& what, const std::string& with) {
    const std::size_t at = text.find(what);
    if (at != std::string::npos) text.replace(at, what.size(), with);
    return text;
}

}  // namespace

Json template_message(Rng& rng) {
    static const std::vector<std::string> tools = {"read",       "edit", "multiedit", "write", "insert",
                                                   "apply_diff", "undo", "changes",   "move",  "delete",
                                                   "list",       "find", "grep"};
    const Json id = pick(rng, 4) == 0 ? Json("s" + std::to_string(pick(rng, 50))) : Json(pick(rng, 50));
    const auto request = [&id](const std::string& method, Json params) {
        return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
    };
    const auto note = [](const std::string& method, Json params) {
        return Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
    };
    const bool modern = pick(rng, 2) == 0;
    const auto with_meta = [&](Json params) {
        if (modern) params["_meta"] = modern_meta(rng);
        return params;
    };
    switch (pick(rng, 16)) {
        case 0: {
            static const char* versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01"};
            Json caps = {{"elicitation", Json::object()}};
            if (pick(rng, 3) == 0) caps["roots"] = {{"listChanged", true}};
            return request("initialize", {{"protocolVersion", versions[pick(rng, 5)]},
                                          {"capabilities", caps},
                                          {"clientInfo", {{"name", "fuzz"}, {"version", "1"}}}});
        }
        case 1: return note("notifications/initialized", Json::object());
        case 2: return request("ping", Json::object());
        case 3: return request("tools/list", with_meta(Json::object()));
        case 4:
        case 5:
        case 6: {
            const std::string tool = tools[pick(rng, tools.size())];
            Json params = {{"name", tool}, {"arguments", tool_arguments(tool, rng)}};
            if (pick(rng, 3) == 0) params["_meta"] = {{"progressToken", 1}};
            if (modern) {
                params["_meta"] = modern_meta(rng);
                if (pick(rng, 2) == 0) {
                    params["requestState"] = "eyJ2IjoxfQ.AAAA";
                    params["inputResponses"] = {
                        {"approval", {{"action", "accept"}, {"content", {{"decision", "apply"}}}}}};
                }
            }
            return request("tools/call", params);
        }
        case 7: return request("logging/setLevel", {{"level", pick(rng, 2) ? "debug" : "error"}});
        case 8: return request("resources/list", with_meta(Json::object()));
        case 9:
            return request(
                "resources/read",
                with_meta({{"uri", pick(rng, 2) ? "mcp-edit://session/patch" : "mcp-edit://session/file/a.txt"}}));
        case 10:
            return request(pick(rng, 2) ? "resources/subscribe" : "resources/unsubscribe",
                           {{"uri", "mcp-edit://session/patch"}});
        case 11: return request(pick(rng, 2) ? "resources/templates/list" : "prompts/list", with_meta(Json::object()));
        case 12: return request("server/discover", {{"_meta", modern_meta(rng)}});
        case 13: return note("notifications/cancelled", {{"requestId", id}, {"reason", "fuzz"}});
        case 14:  // an answer to the server's elicitation/create or roots/list (its ids count from 1)
            return {{"jsonrpc", "2.0"},
                    {"id", 1 + pick(rng, 4)},
                    {"result", pick(rng, 2) ? Json{{"action", "accept"}, {"content", {{"decision", "apply"}}}}
                                            : Json{{"roots", {{{"uri", "file:///tmp"}}}}}}};
        default: return note("notifications/roots/list_changed", Json::object());
    }
}

std::string mutate_message(Json message, Rng& rng) {
    std::vector<Json::json_pointer> at;
    places(message, Json::json_pointer(), at);
    const Json::json_pointer place = at[pick(rng, at.size())];
    Json& target = message[place];
    const std::string marker_text = Json(std::string(raw_marker)).dump();
    switch (pick(rng, 6)) {
        case 0:
        case 1: target = other_type_value(rng); return message.dump();
        case 2: target = std::string(raw_marker); return replace_once(message.dump(), marker_text, raw_value(rng));
        case 3:  // missing
        {
            if (place.empty()) return "";
            Json& parent = message[place.parent_pointer()];
            if (parent.is_object())
                parent.erase(place.back());
            else
                parent.erase(static_cast<std::size_t>(std::stoul(place.back())));
            return message.dump();
        }
        case 4: {  // a key twice: the object at `place` (or the one holding it) gets one of its keys again
            Json* object = target.is_object() ? &target : place.empty() ? nullptr : &message[place.parent_pointer()];
            if (!object || !object->is_object() || object->empty()) return message.dump();
            const std::string key = std::next(object->begin(), static_cast<long>(pick(rng, object->size()))).key();
            (*object)[std::string(dup_marker)] = 0;
            const Json value = pick(rng, 2) ? other_type_value(rng) : Json((*object)[key]);
            return replace_once(message.dump(), Json(std::string(dup_marker)).dump() + ":0",
                                Json(key).dump() + ":" + value.dump());
        }
        default: {  // a batch (2025-03-26 only), or the message as an element of one
            Json batch = Json::array({message});
            if (pick(rng, 2) == 0) batch.push_back(template_message(rng));
            return batch.dump();
        }
    }
}

}  // namespace session_fuzz
