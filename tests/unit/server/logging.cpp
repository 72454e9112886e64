// MCP's eight log level names against spdlog's levels, both ways.
#include <doctest/doctest.h>

#include "server/logging.hpp"

TEST_CASE("logging: MCP level names map onto spdlog levels; spdlog's own spellings are not MCP's") {
    using spdlog::level::level_enum;
    CHECK(server::level_from_mcp("debug") == level_enum::debug);
    CHECK(server::level_from_mcp("info") == level_enum::info);
    CHECK(server::level_from_mcp("notice") == level_enum::info);
    CHECK(server::level_from_mcp("warning") == level_enum::warn);
    CHECK(server::level_from_mcp("error") == level_enum::err);
    CHECK(server::level_from_mcp("critical") == level_enum::critical);
    CHECK(server::level_from_mcp("alert") == level_enum::critical);
    CHECK(server::level_from_mcp("emergency") == level_enum::critical);
    for (const char* not_mcp : {"trace", "off", "warn", "err", "", "INFO"}) CHECK_FALSE(server::level_from_mcp(not_mcp));
    CHECK(server::mcp_level_name(level_enum::trace) == "debug");
    CHECK(server::mcp_level_name(level_enum::warn) == "warning");
    CHECK(server::mcp_level_name(level_enum::err) == "error");
    CHECK(server::mcp_level_name(level_enum::critical) == "critical");
}
