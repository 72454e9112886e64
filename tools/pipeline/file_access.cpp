// load_text_file: boundary, non-blocking read, facts and refusals in one place.
#include "tools/pipeline/file_access.hpp"

#include <utility>

#include "os/editorconfig.hpp"
#include "os/hash.hpp"
#include "os/file_reads.hpp"
#include "tools/pipeline/file_access_messages.hpp"
#include "tools/pipeline/listing.hpp"

namespace tools {

namespace {

// A size over a limit, and the limit, as a refusal says them: rounded like a listing's sizes
// (compact_size), or in exact bytes when the rounded forms would read the same.
std::pair<std::string, std::string> size_and_limit(std::uint64_t size, std::uint64_t limit) {
    std::string a = compact_size(size), b = compact_size(limit);
    if (a == b) return {base::with_commas(size) + " bytes", base::with_commas(limit) + " bytes"};
    return {std::move(a), std::move(b)};
}

}  // namespace

base::Result<void> refuse_ignored(const CallContext& ctx, const os::ResolvedPath& path, bool write) {
    if (!ctx.ignore) return {};
    const std::string* root = ctx.workspace.root_of(path.real);
    if (!root) return {};
    const auto refusal = write ? ctx.ignore->refuse_write(*root, path.real) : ctx.ignore->refuse_read(*root, path.real);
    if (!refusal) return {};
    const auto shown = [&](const std::string& relative) { return ctx.workspace.display_path(*root + "/" + relative); };
    std::string message;
    using Kind = os::IgnoreRefusal::Kind;
    switch (refusal->kind) {
        case Kind::git_directory:
            message = inside_git_directory_message(path.display, shown(refusal->ignored_path));
            break;
        case Kind::ignore_file: message = ignore_file_message(path.display); break;
        case Kind::rule: {
            const std::string ignored = shown(refusal->ignored_path);
            message = ignored_by_rule_message(path.display, ignored != path.display ? ignored : std::string(),
                                              refusal->rule, shown(refusal->file), refusal->line, write);
            break;
        }
    }
    return base::fail(base::Failure{std::move(message), base::ErrorReason::ignored});
}

FileEncoding decide_file_encoding(const CallContext& ctx, const std::string& real, std::string_view raw, bool bom,
                                  std::string_view requested, std::string& text) {
    os::EncodingHints hints;
    hints.requested = requested.empty() ? ctx.file_states.encoding(real) : std::string(requested);
    if (!bom)
        if (std::string charset = os::editorconfig_for(real).charset; charset == "latin1" || charset == "utf-8")
            hints.editorconfig_charset = std::move(charset);
    os::EncodingDecision decision = os::decide_encoding(raw, hints);
    return file_encoding(decision, raw, text);
}

base::Result<void> load_text_file(const CallContext& ctx, const std::string& path, LoadedFile& out,
                                  std::string_view encoding) {
    auto resolved = ctx.workspace.resolve(path);
    if (!resolved) return base::fail(base::Failure{std::move(resolved.error().message), resolved.error().reason});
    out.path = std::move(resolved).value();
    if (!out.path.exists)
        return base::fail(base::Failure{file_not_found_message(path, out.path.real), base::ErrorReason::not_found});
    return load_resolved_file(ctx, path, out, false, true, encoding);
}

base::Result<void> load_resolved_file(const CallContext& ctx, const std::string& path, LoadedFile& out, bool keep_open,
                                      bool text_only, std::string_view encoding) {
    auto read = os::read_regular_file(out.path.real, ctx.settings.limits.max_file_size, keep_open);
    if (!read) {
        const os::ReadFailure& failure = read.error();
        using Why = os::ReadFailure::Why;
        switch (failure.why) {
            case Why::not_found:
                return base::fail(base::Failure{file_vanished_message(path), base::ErrorReason::not_found});
            case Why::not_regular:
                if (failure.kind == os::FileKind::directory)
                    return base::fail(base::Failure{directory_not_file_message(path), base::ErrorReason::not_a_file});
                return base::fail(base::Failure{not_regular_file_message(path, os::describe(failure.kind)),
                                                base::ErrorReason::not_a_file});
            case Why::too_large: {
                const auto [size, limit] = size_and_limit(failure.size, ctx.settings.limits.max_file_size);
                return base::fail(
                    base::Failure{file_too_large_message(path, size, limit), base::ErrorReason::too_large});
            }
            case Why::io: break;
        }
        return base::fail(base::Failure{cannot_read_message(path, failure.detail), base::ErrorReason::io_error});
    }
    os::ReadFile& file = *read;
    if (file.stat.links > 1 && ctx.ignore && ctx.ignore->settings().ignore_reads)
        return base::fail(
            base::Failure{hard_links_under_ignore_reads_message(path, file.stat.links), base::ErrorReason::ignored});
    out.bytes = std::move(file.bytes);
    out.stat = file.stat;
    out.open_file = std::move(file.open_file);
    out.facts = text::analyze(out.bytes);
    out.fingerprint_.reset();
    out.encoding = FileEncoding{};
    out.text.clear();
    if (!text_only) return {};
    // A NUL byte is binary, unless a UTF-16 BOM says what it is.
    const bool utf16 = out.facts.bom == text::Bom::utf16le || out.facts.bom == text::Bom::utf16be;
    if (!out.facts.binary || out.facts.bom != text::Bom::none)
        out.encoding =
            decide_file_encoding(ctx, out.path.real, out.bytes, out.facts.bom != text::Bom::none, encoding, out.text);
    // UTF-32, or a UTF-16 BOM over bytes that are not UTF-16: refused, saying which.
    if (out.facts.bom != text::Bom::none && out.facts.bom != text::Bom::utf8 && !out.encoding.transcoded)
        return base::fail(
            base::Failure{unsupported_encoding_message(
                              path, text::to_string(out.facts.bom),
                              out.encoding.note.empty() ? "its text is not " + out.encoding.name : out.encoding.note),
                          base::ErrorReason::not_text});
    if (out.facts.binary && !utf16) {
        const auto nul = out.bytes.find('\0');
        return base::fail(base::Failure{binary_file_message(path, nul), base::ErrorReason::not_text});
    }
    return {};
}

const ledger::Fingerprint& LoadedFile::fingerprint() const {
    if (!fingerprint_) fingerprint_ = ledger::Fingerprint::of(bytes);
    return *fingerprint_;
}

LoadedFile LoadedFile::as_planned() const {
    LoadedFile out;
    out.path = path;
    out.stat = stat;
    out.open_file = open_file;
    out.encoding = encoding;
    out.encoding.transcoded = false;  // its bytes are the text: nothing more to convert
    out.bytes = text;
    out.facts = text::analyze(out.bytes);
    out.fingerprint_ = fingerprint();
    return out;
}

}  // namespace tools
