// What LSP calls files and findings, for checks/language_server: file URIs (made and compared),
// language ids by file name, and the Diagnostic of each entry of a publishDiagnostics. Pure; the
// JSON comes from another program, so nothing here assumes its shape.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/diagnostics.hpp"

namespace checks::lsp {

// "file:///a/b%20c.txt" for "/a/b c.txt" ("file:///C:/a" for "C:/a").
std::string file_uri(const std::string& real);

// A URI as a server may spell it ("file:///C%3A/x", "file:///c:/x") made comparable with ours:
// escapes decoded (and, on Windows, case folded).
std::string normalized_uri(const std::string& uri);

// LSP's languageId for a file name ("cpp", "python", "typescript", ...; "plaintext" otherwise).
std::string language_id(const std::string& real);

// The findings of a publishDiagnostics' `diagnostics` about `real` (at most max_diagnostics;
// entries without a message are skipped). Line and column are LSP's + 1 (0 when missing).
std::vector<Diagnostic> read_diagnostics(const nlohmann::json& diagnostics, const std::string& real);

// `object[key]` when `object` is an object that has it; else a null.
const nlohmann::json& field(const nlohmann::json& object, const char* key);

}  // namespace checks::lsp
