// JSON-RPC 2.0 on the wire: ids (int or string, echoed with their type), the kinds of message,
// total classification of a parsed line, and serialisation that never throws. No I/O here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace protocol {

using Json = nlohmann::json;

enum ErrorCode : int {
    parse_error = -32700,
    invalid_request = -32600,
    method_not_found = -32601,
    invalid_params = -32602,
    internal_error = -32603,
    unsupported_protocol_version = -32022,
};

// A request id: a JSON integer or string. Id 0 is an id.
class RequestId {
public:
    explicit RequestId(std::int64_t n) : value_(n) {}
    explicit RequestId(std::string s) : value_(std::move(s)) {}
    static std::optional<RequestId> from_json(const Json& j);
    Json to_json() const;
    // A key unique across both types ("i:5" vs "s:5") for tables.
    std::string key() const;
    bool operator==(const RequestId&) const = default;

private:
    std::variant<std::int64_t, std::string> value_;
};

struct Request {
    RequestId id;
    std::string method;
    Json params;  // an object (empty when absent)
};

struct Notification {
    std::string method;
    Json params;
};

struct Response {
    RequestId id;
    std::optional<Json> result;  // set for a result
    std::optional<Json> error;   // set for an error
};

// A message that cannot be served; answered with an error carrying `id` when it could be read.
struct Invalid {
    std::optional<RequestId> id;
    int code = invalid_request;
    std::string message;
};

using Message = std::variant<Request, Notification, Response, Invalid>;

// Classifies one parsed JSON value (one element of a batch, or a whole line).
Message classify(Json value);

// The result of reading one line: a single value, a batch (JSON array), or a failure.
struct ParsedLine {
    enum class Kind { single, batch, failure } kind = Kind::failure;
    Json value;              // single or batch
    int code = parse_error;  // failure
    std::string message;     // failure
    // single or batch: where a key appeared twice in one object ("params.arguments.file_path"),
    // empty when none did. The value keeps the last one (nlohmann's choice); such a message is
    // invalid and must not be acted on.
    std::string duplicate_key;
};

struct ParseLimits {
    std::size_t max_depth = 64;
};

ParsedLine parse_line(std::string_view line, const ParseLimits& limits = {});

// Deepest nesting of arrays and objects in the JSON text `line` (brackets inside strings do not
// count), stopping early once it passes `limit`.
std::size_t nesting_depth(std::string_view line, std::size_t limit);

Json make_result(const RequestId& id, Json result);
Json make_error(const std::optional<RequestId>& id, int code, std::string_view message, const Json& data = Json());
// Null `params` are left out (LSP's shutdown and exit take none).
Json make_request(const RequestId& id, std::string_view method, Json params);
Json make_notification(std::string_view method, Json params);

// The member `key` of `object`, or nullptr when `object` is no object or has no such member.
// Client-sent JSON is read through this (and type checks), never with value()/get<>()/at(),
// which throw on a value of another type.
const Json* member(const Json& object, std::string_view key);
// The string member `key`, or nullopt when it is absent, or is no string, or `object` is no object.
std::optional<std::string> string_member(const Json& object, std::string_view key);

// A value as a message quotes it: compact JSON (invalid UTF-8 replaced), at most `max` bytes, cut
// on a character boundary and then marked with "…".
std::string excerpt(const Json& value, std::size_t max = 60);

// Serialises one message to a single line without the newline. Invalid UTF-8 inside strings is
// replaced, so a reply is always serialisable.
std::string serialize(const Json& message);

}  // namespace protocol
