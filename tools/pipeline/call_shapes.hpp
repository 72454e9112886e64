// Call shapes other agents' tools use, mapped onto ours before the aliases and validation run:
// Anthropic's text editor (`command: "str_replace"` ...), pi's and Kimi's edit lists, `insert_line`
// on insert, Roo Code's XML apply_diff, and other agents' safety arguments (`preview` as dry_run;
// on write `overwrite: false`, `no_clobber`, `if_not_exists` as create_only). A model that sends
// them would otherwise fail and retry (or, worse, lose the safety it asked for); each mapping is
// said in the result's notes so it learns our names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace tools {

struct CallShape {
    std::string tool;                // the tool that serves the call (may differ from the one named)
    std::vector<std::string> notes;  // one sentence per mapping ("Read `insert_line` as `line`.")
};

// Maps `args` (as the caller sent them, before Registry::apply_aliases) in place for a call of
// `tool`, one of ours. Arguments that need no mapping are left as they are. A failure (reason
// invalid_arguments) is a shape that cannot be mapped, with the message for the model.
base::Result<CallShape> map_call_shape(std::string_view tool, nlohmann::json& args);

// Other agents' safety arguments, for a call of a tool that changes files (shape.tool, once
// mapped): `preview` is dry_run; on write, `no_clobber` and `if_not_exists` are create_only, and
// `overwrite: false` is create_only: true. Each mapping adds a note; contradicting values fail.
base::Result<void> map_safety_names(nlohmann::json& args, CallShape& shape);

// One file of Roo Code's multi-file apply_diff XML:
// <args><file><path>P</path><diff><content>SEARCH/REPLACE</content><start_line>N</start_line></diff>
// ...</file>...</args>
struct RooFileDiff {
    std::string path;
    std::string diff;  // the SEARCH/REPLACE text of its diffs, each block given its start_line
};

// The files, or why text that looks like the XML form cannot be read.
using RooXml = base::Result<std::vector<RooFileDiff>, std::string>;

// Reads the XML form (a bounded scan, not a general XML parser): `<args>` optional; per `<file>` a
// `<path>` and one or more `<diff>`, each holding `<content>` (or the text directly) and an
// optional `<start_line>`; CDATA sections are unwrapped; entities are not decoded (Roo sends the
// content verbatim).
RooXml parse_roo_xml(std::string_view text);

// Two tests for Roo Code's XML form, and why there are two. `starts_as_roo_xml`, strict: `text`
// starts (after whitespace) with `<args>` or `<file>`, so it is read as that form (a unified diff or
// SEARCH/REPLACE blocks that merely hold such a tag in their lines are not). `mentions_roo_xml`,
// loose: a `<path>` tag with `<args>`, `<file>` or `<diff>` anywhere (prose or a fence before it),
// used only to add a note naming the form to a diff that could not be read.
bool starts_as_roo_xml(std::string_view text);
bool mentions_roo_xml(std::string_view text);

}  // namespace tools
