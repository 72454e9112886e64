// What a client shows its model of a tool result, as far as the server knows it (the session's
// quirks table names the client): `read` then puts its numbered text where that model sees it,
// once, and in the form that costs it the fewest tokens.
#pragma once

namespace tools {

struct ResultView {
    enum class Shows {
        // Not known: content[0] and structuredContent each carry the whole numbered text (the contract).
        unknown,
        // Only structuredContent, as JSON (Claude Code, Codex).
        structured_only,
        // structuredContent as JSON, then the content[] texts (Qwen Code): the numbered text is in
        // content[0] alone, and structuredContent's `text` says where it is.
        both,
    };
    Shows shows = Shows::unknown;
    // The host puts what it shows inside JSON (Claude Code, Codex, Gemini CLI, Qwen Code), where
    // each escaped tab and newline splits the six-column padding of `read`'s numbers from its
    // neighbours: about a token a line more. Then the numbers come unpadded ("12\tline").
    bool escaped = false;
};

}  // namespace tools
