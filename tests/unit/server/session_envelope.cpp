// Unit tests of the request envelope's quirks table: which clients get what, by clientInfo.name
// (exact for Codex, a prefix for Qwen Code, which appends the server's configured name).
#include <doctest/doctest.h>

#include "server/session_envelope.hpp"

TEST_CASE("quirks: Codex and Qwen Code get a result budget under the size their hosts cut at; others none") {
    const server::ClientQuirks codex = server::quirks_of("codex-mcp-client");
    CHECK_FALSE(codex.form_feedback_field);
    CHECK(codex.result_text_budget == 9000);
    CHECK(server::quirks_of("qwen-cli-mcp-client-edit").result_text_budget == 10000);
    CHECK(server::quirks_of("qwen-cli-mcp-client-mcp-edit").form_feedback_field);
    CHECK(server::quirks_of("claude-code").result_text_budget == 0);
    CHECK(server::quirks_of("codex-mcp-client-2").result_text_budget == 0);  // Codex's name is matched whole
    CHECK(server::quirks_of("qwen").result_text_budget == 0);
    CHECK(server::quirks_of("").result_text_budget == 0);
}

TEST_CASE("quirks: what each host shows its model of a result") {
    using Shows = tools::ResultView::Shows;
    const auto shows = [](std::string_view name) { return server::quirks_of(name).result_view.shows; };
    const auto escaped = [](std::string_view name) { return server::quirks_of(name).result_view.escaped; };
    CHECK(shows("claude-code") == Shows::structured_only);
    CHECK(shows("codex-mcp-client") == Shows::structured_only);
    CHECK(shows("qwen-cli-mcp-client-edit") == Shows::both);
    CHECK(shows("gemini-cli-mcp-client") == Shows::unknown);
    for (const auto* name : {"claude-code", "codex-mcp-client", "qwen-cli-mcp-client-edit", "gemini-cli-mcp-client"})
        CHECK_MESSAGE(escaped(name), name);
    CHECK(shows("claude-code-2") == Shows::unknown);  // matched whole
    CHECK_FALSE(escaped("claude-code-2"));
    CHECK_FALSE(escaped("opencode"));
    CHECK_FALSE(escaped(""));
}
