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

TEST_CASE("quirks: Claude Code and Codex show only structuredContent, Qwen Code shows it and content[]; others unknown") {
    CHECK(server::quirks_of("claude-code").result_view == tools::ResultView::structured_only);
    CHECK(server::quirks_of("codex-mcp-client").result_view == tools::ResultView::structured_only);
    CHECK(server::quirks_of("qwen-cli-mcp-client-edit").result_view == tools::ResultView::both);
    CHECK(server::quirks_of("claude-code-2").result_view == tools::ResultView::unknown);  // matched whole
    CHECK(server::quirks_of("gemini-cli-mcp-client").result_view == tools::ResultView::unknown);
    CHECK(server::quirks_of("").result_view == tools::ResultView::unknown);
}
