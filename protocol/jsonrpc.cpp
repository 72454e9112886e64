// JSON-RPC 2.0 classification and serialisation: total functions, every failure a value.
#include "protocol/jsonrpc.hpp"
#include "base/wording.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <unordered_set>
#include <vector>

namespace protocol {

std::optional<RequestId> RequestId::from_json(const Json& j) {
    if (j.is_number_integer()) return RequestId(j.get<std::int64_t>());
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(INT64_MAX)) return RequestId(static_cast<std::int64_t>(u));
        return std::nullopt;
    }
    if (j.is_string()) return RequestId(j.get_ref<const std::string&>());
    return std::nullopt;
}

Json RequestId::to_json() const {
    if (const auto* n = std::get_if<std::int64_t>(&value_)) return *n;
    return std::get<std::string>(value_);
}

std::string RequestId::key() const {
    if (const auto* n = std::get_if<std::int64_t>(&value_)) return "i:" + std::to_string(*n);
    return "s:" + std::get<std::string>(value_);
}

// Deepest nesting of arrays/objects in `line`, stopping early once it passes `limit`.
// Strings are skipped so brackets inside them do not count.
std::size_t nesting_depth(std::string_view line, std::size_t limit) {
    std::size_t depth = 0, deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
            if (deepest > limit) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

namespace {

// Builds the value as Json::parse does (nlohmann's own builder, driven as a SAX handler) and on the
// way finds a key that appears twice in one object, and where. Keys are compared in a short list
// per object (a set once an object has many), so a small message costs few allocations.
class ParseWithDuplicateCheck : public nlohmann::detail::json_sax_dom_parser<Json> {
    using Dom = nlohmann::detail::json_sax_dom_parser<Json>;

public:
    explicit ParseWithDuplicateCheck(Json& into) : Dom(into, true) {}

    bool start_object(std::size_t n) {
        frames_.push_back(Frame{true});
        return Dom::start_object(n);
    }
    bool start_array(std::size_t n) {
        frames_.push_back(Frame{false});
        return Dom::start_array(n);
    }
    bool end_object() {
        leave();
        return Dom::end_object();
    }
    bool end_array() {
        leave();
        return Dom::end_array();
    }
    bool key(std::string& k) {
        if (!frames_.empty()) {
            Frame& top = frames_.back();
            top.key = k;
            if (!top.insert(k) && found_.empty()) found_ = path();
        }
        return Dom::key(k);
    }
    bool null() {
        element_done();
        return Dom::null();
    }
    bool boolean(bool v) {
        element_done();
        return Dom::boolean(v);
    }
    bool number_integer(Json::number_integer_t v) {
        element_done();
        return Dom::number_integer(v);
    }
    bool number_unsigned(Json::number_unsigned_t v) {
        element_done();
        return Dom::number_unsigned(v);
    }
    bool number_float(Json::number_float_t v, const std::string& text) {
        element_done();
        return Dom::number_float(v, text);
    }
    bool string(std::string& v) {
        element_done();
        return Dom::string(v);
    }
    bool binary(Json::binary_t& v) {
        element_done();
        return Dom::binary(v);
    }

    std::string found() && { return std::move(found_); }

private:
    static constexpr std::size_t listed_keys = 16;  // more keys than this: a set
    struct Frame {
        bool object;
        std::vector<std::string> keys = {};
        std::unique_ptr<std::unordered_set<std::string>> many = nullptr;
        std::string key = {};   // object: the member being read
        std::size_t index = 0;  // array: the element being read
        bool insert(const std::string& k) {
            if (many) return many->insert(k).second;
            if (std::find(keys.begin(), keys.end(), k) != keys.end()) return false;
            keys.push_back(k);
            if (keys.size() > listed_keys) {
                many = std::make_unique<std::unordered_set<std::string>>(std::make_move_iterator(keys.begin()),
                                                                         std::make_move_iterator(keys.end()));
                keys.clear();
            }
            return true;
        }
    };
    void leave() {
        if (!frames_.empty()) frames_.pop_back();
        element_done();
    }
    void element_done() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    }
    std::string path() const {
        std::string out;
        for (const Frame& f : frames_) {
            if (f.object)
                out += (out.empty() ? "" : ".") + f.key;
            else
                out += "[" + std::to_string(f.index) + "]";
        }
        return out;
    }

    std::vector<Frame> frames_;
    std::string found_;
};

}  // namespace

ParsedLine parse_line(std::string_view line, const ParseLimits& limits) {
    ParsedLine out;
    if (nesting_depth(line, limits.max_depth) > limits.max_depth) {
        out.code = invalid_request;
        out.message = "Invalid Request: JSON nested deeper than " + std::to_string(limits.max_depth) + " levels";
        return out;
    }
    ParseWithDuplicateCheck builder(out.value);
    try {
        Json::sax_parse(line.begin(), line.end(), &builder);
    } catch (const Json::exception& e) {
        // Not only parse_error: a number beyond double's range (1e999) is an out_of_range.
        out = ParsedLine{};
        out.code = parse_error;
        out.message = std::string("Parse error: ") + e.what();
        return out;
    }
    out.duplicate_key = std::move(builder).found();
    out.kind = out.value.is_array() ? ParsedLine::Kind::batch : ParsedLine::Kind::single;
    return out;
}

Message classify(Json v) {
    if (!v.is_object())
        return Invalid{std::nullopt, invalid_request, "Invalid Request: a message must be a JSON object"};
    std::optional<RequestId> id;
    const auto id_it = v.find("id");
    const bool has_id = id_it != v.end();
    if (has_id) id = RequestId::from_json(*id_it);

    const auto version = v.find("jsonrpc");
    if (version == v.end() || *version != "2.0")
        return Invalid{id, invalid_request, "Invalid Request: \"jsonrpc\" must be \"2.0\""};
    if (has_id && !id)
        return Invalid{std::nullopt, invalid_request, "Invalid Request: \"id\" must be an integer or a string"};

    const auto method = v.find("method");
    if (method != v.end()) {
        if (!method->is_string()) return Invalid{id, invalid_request, "Invalid Request: \"method\" must be a string"};
        Json params = Json::object();
        if (const auto p = v.find("params"); p != v.end()) {
            if (!p->is_object()) return Invalid{id, invalid_params, "Invalid params: \"params\" must be an object"};
            params = std::move(*p);
        }
        if (id) return Request{*id, method->get<std::string>(), std::move(params)};
        return Notification{method->get<std::string>(), std::move(params)};
    }

    const auto result = v.find("result");
    const auto error = v.find("error");
    if (id && (result != v.end()) != (error != v.end())) {
        Response r{*id, std::nullopt, std::nullopt};
        if (result != v.end())
            r.result = std::move(*result);
        else
            r.error = std::move(*error);
        return r;
    }
    return Invalid{id, invalid_request,
                   "Invalid Request: expected a request (\"method\"), or a response (\"id\" with "
                   "\"result\" or \"error\")"};
}

Json make_result(const RequestId& id, Json result) {
    return Json{{"jsonrpc", "2.0"}, {"id", id.to_json()}, {"result", std::move(result)}};
}

Json make_error(const std::optional<RequestId>& id, int code, std::string_view message, const Json& data) {
    Json error{{"code", code}, {"message", message}};
    if (!data.is_null()) error["data"] = data;
    Json m{{"jsonrpc", "2.0"}};
    if (id) m["id"] = id->to_json();
    m["error"] = std::move(error);
    return m;
}

Json make_request(const RequestId& id, std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"id", id.to_json()}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

Json make_notification(std::string_view method, Json params) {
    Json m{{"jsonrpc", "2.0"}, {"method", method}};
    if (!params.is_null()) m["params"] = std::move(params);
    return m;
}

const Json* member(const Json& object, std::string_view key) {
    if (!object.is_object()) return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::optional<std::string> string_member(const Json& object, std::string_view key) {
    const Json* m = member(object, key);
    if (!m || !m->is_string()) return std::nullopt;
    return m->get_ref<const std::string&>();
}

std::string excerpt(const Json& value, std::size_t max) {
    return base::cut_utf8(value.dump(-1, ' ', false, Json::error_handler_t::replace), max);
}

std::string serialize(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

}  // namespace protocol
