// What one post-write check found, and how a change's result tells it: one sentence for the
// summary, a block of text after the diffs, and the `checks` entries of structuredContent.
// ChangeReport (tools/change_report) calls these; nothing else renders checks.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "os/process.hpp"
#include "checks/diagnostics.hpp"

namespace checks {

struct CheckOutcome {
    std::string command;                  // the rule's command as written (with `{file}`)
    std::string file;                     // the checked file's real path
    std::string display;                  // the same as messages show it
    os::ProcessOutcome run;               // of the written file
    std::vector<Diagnostic> diagnostics;  // read from run.output
    std::vector<bool> is_new;             // per diagnostic; all true when !compared
    std::vector<Diagnostic> fixed;        // findings of the pre-image that are gone
    bool compared = false;                // the pre-image was checked too (a new file has none)
    bool language_server = false;         // an --lsp rule: `run` says only whether it answered
};

// One sentence: the change is written, and what each check said ("... failed (exit 1): 1 new
// error, 1 fixed").
std::string checks_sentence(const std::vector<CheckOutcome>& checks);

// The text after the diffs: per check that failed or found something, its findings and output.
// "" when every check passed silently.
std::string checks_text(const std::vector<CheckOutcome>& checks);

// structuredContent's `checks`.
nlohmann::json checks_json(const std::vector<CheckOutcome>& checks);

}  // namespace checks
