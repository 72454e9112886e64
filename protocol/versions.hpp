// MCP protocol revisions this server speaks, grouped into the two eras (legacy: `initialize`
// handshake; modern: stateless, per-request `_meta`), and the few facts that differ by revision.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace protocol {

enum class Era { undecided, legacy, modern };

inline constexpr std::string_view modern_version = "2026-07-28";
// Preferred first: the answer to an `initialize` asking for a version we do not know.
inline constexpr std::array<std::string_view, 4> legacy_versions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                                    "2024-11-05"};

inline constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";

inline bool is_legacy_version(std::string_view v) {
    for (auto known : legacy_versions)
        if (known == v) return true;
    return false;
}

// 2025-03-26 is the only revision with JSON-RPC batches.
inline bool allows_batches(std::string_view v) { return v == "2025-03-26"; }
// structuredContent, outputSchema and titles arrived in 2025-06-18.
inline bool has_structured_output(std::string_view v) { return v >= std::string_view("2025-06-18"); }

}  // namespace protocol
