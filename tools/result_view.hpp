// What a client shows its model of a tool result, as far as the server knows it (the session's
// quirks table names the client): `read` then puts its numbered text where that model sees it, once.
#pragma once

namespace tools {

enum class ResultView {
    // Not known: content[0] and structuredContent each carry the whole numbered text (the contract).
    unknown,
    // Only structuredContent, as JSON (Claude Code, Codex): its numbered text comes without the
    // six-column padding, which JSON escaping makes cost about a token a line more.
    structured_only,
    // structuredContent as JSON, then the content[] texts (Qwen Code): the numbered text is in
    // content[0] alone, and structuredContent says where it is.
    both,
};

}  // namespace tools
