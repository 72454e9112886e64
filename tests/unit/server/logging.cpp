// MCP's eight log level names against the log's levels, both ways.
#include <doctest/doctest.h>

#include "server/logging.hpp"

TEST_CASE("logging: MCP level names map onto the log's levels; spdlog's own spellings are not MCP's") {
    using base::log::Level;
    CHECK(server::level_from_mcp("debug") == Level::debug);
    CHECK(server::level_from_mcp("info") == Level::info);
    CHECK(server::level_from_mcp("notice") == Level::info);
    CHECK(server::level_from_mcp("warning") == Level::warn);
    CHECK(server::level_from_mcp("error") == Level::error);
    CHECK(server::level_from_mcp("critical") == Level::critical);
    CHECK(server::level_from_mcp("alert") == Level::critical);
    CHECK(server::level_from_mcp("emergency") == Level::critical);
    for (const char* not_mcp : {"trace", "off", "warn", "err", "", "INFO"})
        CHECK_FALSE(server::level_from_mcp(not_mcp));
    CHECK(server::mcp_level_name(Level::trace) == "debug");
    CHECK(server::mcp_level_name(Level::debug) == "debug");
    CHECK(server::mcp_level_name(Level::info) == "info");
    CHECK(server::mcp_level_name(Level::warn) == "warning");
    CHECK(server::mcp_level_name(Level::error) == "error");
    CHECK(server::mcp_level_name(Level::critical) == "critical");
}
