// Loading a file a tool was asked about: the path through the workspace boundary, the bytes
// read without blocking, the text facts, and the refusals (directories, FIFOs, devices, binary,
// UTF-16/32, too large) worded for a model. Shared by every tool that reads a file.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "os/file_status.hpp"
#include "os/workspace.hpp"
#include "text/bytes/file_facts.hpp"
#include "ledger/fingerprint.hpp"
#include "tools/pipeline/file_encoding.hpp"
#include "tools/tool.hpp"

namespace tools {

struct LoadedFile {
    os::ResolvedPath path;
    std::string bytes;
    os::FileStat stat;
    text::FileFacts facts;
    std::shared_ptr<const void> open_file;  // see os::ReadFile (only when asked to keep it open)
    // Decided for a text file (not for one loaded with text_only false). When encoding.transcoded,
    // `text` is its content as UTF-8 (BOM excluded): what the model reads and planners plan on.
    FileEncoding encoding;
    std::string text;

    // content_fingerprint of the bytes, hashed on first use: an edit needs it only when the file
    // looks touched before the write, and hashing a large file is a pass over all of it.
    const ledger::Fingerprint& fingerprint() const;

    // What the model sees of the file: `text` when transcoded, else the bytes.
    std::string_view shown() const { return encoding.transcoded ? std::string_view(text) : std::string_view(bytes); }
    // The file as planners see it when transcoded: the text as its bytes, with their facts, and the
    // fingerprint of the bytes on disk (what the session's records compare).
    LoadedFile as_planned() const;
    // The encoding the file is written in when it is not UTF-8 (nor its raw bytes): "gbk"; else "".
    std::string_view written_encoding() const {
        return encoding.transcoded ? std::string_view(encoding.name) : std::string_view();
    }

private:
    friend base::Result<void> load_resolved_file(const CallContext&, const std::string&, LoadedFile&, bool, bool,
                                                 std::string_view);
    mutable std::optional<ledger::Fingerprint> fingerprint_;
};

// Fails (reason `ignored`) when an ignore rule, or a .git folder, keeps `path` from being written
// (`write`) or read (only with --ignore-reads); the message names the rule, its file and line.
base::Result<void> refuse_ignored(const CallContext& ctx, const os::ResolvedPath& path, bool write);

// The encoding of the text file at `real` whose bytes are `raw` (`bom`: whether they start with a
// BOM), and in `text` its UTF-8 text when transcoded. The hints: .editorconfig's charset (latin1
// or utf-8 only, for a file without a BOM: its utf-16 charsets would read ASCII as UTF-16), and
// `requested`, or when "" the encoding this session named for the file (FileStates::encoding).
FileEncoding decide_file_encoding(const CallContext& ctx, const std::string& real, std::string_view raw, bool bom,
                                  std::string_view requested, std::string& text);

// Fills `out`, or fails with the error for the model and its reason. `encoding`: the encoding to
// read it in when its bytes fit (read's argument); "" for the one this session named for the file
// (FileStates::encoding), else the decision's own.
base::Result<void> load_text_file(const CallContext& ctx, const std::string& path, LoadedFile& out,
                                  std::string_view encoding = {});

// The same for a file whose path the caller has just resolved (out.path set, existing): no second
// resolution. `path` is how the messages name it. `keep_open`: see os::ReadFile.
// `text_only` false: a binary or UTF-16/32 file is loaded too (move and delete carry any bytes).
base::Result<void> load_resolved_file(const CallContext& ctx, const std::string& path, LoadedFile& out,
                                      bool keep_open = false, bool text_only = true, std::string_view encoding = {});

}  // namespace tools
