// Unit tests of protocol/jsonrpc: classification of every kind of message and failure, id types,
// limits, and serialisation that survives invalid UTF-8.
#include <doctest/doctest.h>

#include "protocol/jsonrpc.hpp"

using namespace protocol;

TEST_CASE("JSON-RPC 2.0 section 4: a request keeps its id type; id 0 is an id") {
    auto m = classify(Json::parse(R"({"jsonrpc":"2.0","id":0,"method":"ping"})"));
    REQUIRE(std::holds_alternative<Request>(m));
    CHECK(std::get<Request>(m).id.to_json() == Json(0));
    CHECK(std::get<Request>(m).params == Json::object());
    auto s = classify(Json::parse(R"({"jsonrpc":"2.0","id":"0","method":"ping","params":{"a":1}})"));
    REQUIRE(std::holds_alternative<Request>(s));
    CHECK(std::get<Request>(s).id.to_json() == Json("0"));
    CHECK(std::get<Request>(s).id.key() != std::get<Request>(m).id.key());
}

TEST_CASE("JSON-RPC 2.0 section 4.1: a message without id is a notification") {
    auto m = classify(Json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
    REQUIRE(std::holds_alternative<Notification>(m));
    CHECK(std::get<Notification>(m).method == "notifications/initialized");
}

TEST_CASE("JSON-RPC 2.0 section 5: responses carry result or error") {
    auto r = classify(Json::parse(R"({"jsonrpc":"2.0","id":7,"result":{}})"));
    REQUIRE(std::holds_alternative<Response>(r));
    CHECK(std::get<Response>(r).result.has_value());
    auto e = classify(Json::parse(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}})"));
    REQUIRE(std::holds_alternative<Response>(e));
    CHECK(std::get<Response>(e).error.has_value());
}

TEST_CASE("invalid envelopes: null, bool, object and float ids lose their id") {
    for (const char* text :
         {R"({"jsonrpc":"2.0","id":null,"method":"ping"})", R"({"jsonrpc":"2.0","id":true,"method":"ping"})",
          R"({"jsonrpc":"2.0","id":{},"method":"ping"})", R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})"}) {
        CAPTURE(text);
        auto m = classify(Json::parse(text));
        REQUIRE(std::holds_alternative<Invalid>(m));
        CHECK_FALSE(std::get<Invalid>(m).id.has_value());
        CHECK(std::get<Invalid>(m).code == invalid_request);
    }
}

TEST_CASE("invalid envelopes with a readable id keep it") {
    auto wrong_version = classify(Json::parse(R"({"jsonrpc":"1.0","id":3,"method":"ping"})"));
    REQUIRE(std::holds_alternative<Invalid>(wrong_version));
    CHECK(std::get<Invalid>(wrong_version).id->to_json() == Json(3));
    auto no_method = classify(Json::parse(R"({"jsonrpc":"2.0","id":4})"));
    REQUIRE(std::holds_alternative<Invalid>(no_method));
    CHECK(std::get<Invalid>(no_method).id->to_json() == Json(4));
    auto array_params = classify(Json::parse(R"({"jsonrpc":"2.0","id":5,"method":"x","params":[1]})"));
    REQUIRE(std::holds_alternative<Invalid>(array_params));
    CHECK(std::get<Invalid>(array_params).code == invalid_params);
    CHECK(std::holds_alternative<Invalid>(classify(Json(42))));
}

TEST_CASE("parse_line: parse errors, batches, and the nesting limit") {
    CHECK(parse_line("{").kind == ParsedLine::Kind::failure);
    CHECK(parse_line("{").code == parse_error);
    CHECK(parse_line("[1,2]").kind == ParsedLine::Kind::batch);
    CHECK(parse_line(R"({"a":"[[[[["})").kind == ParsedLine::Kind::single);
    const std::string deep(100, '[');
    auto too_deep = parse_line(deep, {64});
    CHECK(too_deep.kind == ParsedLine::Kind::failure);
    CHECK(too_deep.code == invalid_request);
    auto bad_utf8 = parse_line("{\"a\":\"\xff\"}");
    CHECK(bad_utf8.kind == ParsedLine::Kind::failure);
    CHECK(bad_utf8.code == parse_error);
}

TEST_CASE("make_error leaves out an unreadable id; serialize survives invalid UTF-8") {
    auto e = make_error(std::nullopt, parse_error, "bad");
    CHECK_FALSE(e.contains("id"));
    CHECK(serialize(e) == R"({"error":{"code":-32700,"message":"bad"},"jsonrpc":"2.0"})");
    Json with_bad = {{"text", std::string("caf\xe9")}};
    CHECK(serialize(with_bad) == "{\"text\":\"caf\xEF\xBF\xBD\"}");
}

TEST_CASE("parse_line: a number beyond double's range is a parse error, not an exception") {
    for (const char* line : {R"({"x":1e999})", R"({"x":-1e999})", "[1e400]"}) {
        const auto parsed = parse_line(line);
        CHECK(parsed.kind == ParsedLine::Kind::failure);
        CHECK(parsed.code == parse_error);
        CHECK(parsed.message.find("number overflow") != std::string::npos);
    }
    // 2^64 and -0 are numbers all the same.
    CHECK(parse_line(R"({"x":18446744073709551616,"y":-0})").kind == ParsedLine::Kind::single);
}

TEST_CASE("parse_line: a key twice in one object is named with its path; the same key in two objects is not") {
    CHECK(parse_line(R"({"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]})").duplicate_key.empty());
    CHECK(parse_line(R"({"a":1,"a":2})").duplicate_key == "a");
    CHECK(parse_line(R"({"result":{"action":"decline","content":{},"action":"accept"}})").duplicate_key ==
          "result.action");
    CHECK(parse_line(R"({"p":[1,{"k":1},{"k":1,"k":2}]})").duplicate_key == "p[2].k");
    CHECK(parse_line(R"([{"id":1},{"id":2,"id":3}])").duplicate_key == "[1].id");
    // An object with many keys (past the short list each object starts with).
    std::string many = R"({"o":{)";
    for (int i = 0; i < 40; ++i) many += (i ? "," : "") + ("\"k" + std::to_string(i) + "\":" + std::to_string(i));
    CHECK(parse_line(many + "}}").duplicate_key.empty());
    CHECK(parse_line(many + R"(,"k3":0}})").duplicate_key == "o.k3");
    CHECK(parse_line(many + R"(,"k39":0}})").duplicate_key == "o.k39");
    CHECK(parse_line(many + "}}").value["o"]["k39"] == 39);
}

TEST_CASE("member and string_member read any JSON value without throwing") {
    const Json object = {{"s", "x"}, {"n", 5}};
    CHECK(member(object, "n") != nullptr);
    CHECK(member(object, "missing") == nullptr);
    CHECK(member(Json(5), "n") == nullptr);
    CHECK(member(Json::array({1}), "n") == nullptr);
    CHECK(string_member(object, "s") == std::optional<std::string>("x"));
    CHECK_FALSE(string_member(object, "n"));
    CHECK_FALSE(string_member(Json(), "s"));
}

TEST_CASE("excerpt: a value as a message quotes it, cut on a character boundary") {
    CHECK(excerpt(Json{{"a", 1}}) == R"({"a":1})");
    const std::string long_text = std::string(57, 'x') + "\xc3\xa9\xc3\xa9";  // é straddles byte 60
    const std::string quoted = excerpt(Json(long_text));
    CHECK(quoted.size() <= 60 + std::string("\u2026").size());
    CHECK(quoted == "\"" + std::string(57, 'x') + "\xc3\xa9" + "\u2026");
    CHECK(excerpt(Json(std::string("\xff"))) == "\"\xef\xbf\xbd\"");  // invalid UTF-8 replaced
    CHECK(excerpt(Json(std::string(100, 'y')), 10) == "\"yyyyyyyyy\u2026");
}
