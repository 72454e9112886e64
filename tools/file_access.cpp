// load_text_file: boundary, non-blocking read, facts and refusals in one place.
#include "tools/file_access.hpp"

#include <utility>

#include "os/hash.hpp"
#include "os/file_reads.hpp"
#include "tools/listing.hpp"

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
    std::string message = "Refused: " + path.display;
    using Kind = os::IgnoreRefusal::Kind;
    switch (refusal->kind) {
        case Kind::git_directory:
            message += " is inside " + shown(refusal->ignored_path) +
                       ", a Git repository's own folder, which this server never writes. Change the repository "
                       "with git itself; work on the files outside .git.";
            break;
        case Kind::ignore_file:
            message +=
                " is one of this server's ignore files (--ignore-file); only the user changes it, so the rules "
                "stay theirs. Ask the user to edit it if a rule should change.";
            break;
        case Kind::rule:
            if (shown(refusal->ignored_path) != path.display)
                message += " is inside " + shown(refusal->ignored_path) + ", which is";
            else
                message += " is";
            message += " ignored by the rule `" + refusal->rule + "` (" + shown(refusal->file) + ", line " +
                       std::to_string(refusal->line) + "), so this server does not " +
                       (write ? "change it" : "read it (--ignore-reads)") +
                       ". Leave it alone, or ask the user to change that rule if the file should be " +
                       (write ? "edited." : "read.");
            break;
    }
    return base::fail(base::Failure{std::move(message), base::ErrorReason::ignored});
}

base::Result<void> load_text_file(const CallContext& ctx, const std::string& path, LoadedFile& out) {
    auto resolved = ctx.workspace.resolve(path);
    if (!resolved) return base::fail(base::Failure{std::move(resolved.error().message), resolved.error().reason});
    out.path = std::move(resolved).value();
    if (!out.path.exists)
        return base::fail(
            base::Failure{"File not found: " + path + " (resolved to " + out.path.real +
                              "). Check the path; to create the file, use write (or edit with an empty old_string).",
                          base::ErrorReason::not_found});
    return load_resolved_file(ctx, path, out);
}

base::Result<void> load_resolved_file(const CallContext& ctx, const std::string& path, LoadedFile& out, bool keep_open,
                                      bool text_only) {
    auto read = os::read_regular_file(out.path.real, ctx.limits.max_file_size, keep_open);
    if (!read) {
        const os::ReadFailure& failure = read.error();
        using Why = os::ReadFailure::Why;
        switch (failure.why) {
            case Why::not_found:
                return base::fail(
                    base::Failure{"File not found: " + path + ". It may have been removed just now; check the path.",
                                  base::ErrorReason::not_found});
            case Why::not_regular:
                if (failure.kind == os::FileKind::directory)
                    return base::fail(
                        base::Failure{"Refused: " + path + " is a directory. Pass the path of a file inside it.",
                                      base::ErrorReason::not_a_file});
                return base::fail(base::Failure{std::string("Refused: ") + path + " is " + os::describe(failure.kind) +
                                                    ", not a regular file; only regular files can be read or changed.",
                                                base::ErrorReason::not_a_file});
            case Why::too_large: {
                const auto [size, limit] = size_and_limit(failure.size, ctx.limits.max_file_size);
                return base::fail(base::Failure{
                    "Refused: " + path + " is " + size + ", over the limit of " + limit + " (--max-file-size).",
                    base::ErrorReason::too_large});
            }
            case Why::io: break;
        }
        return base::fail(
            base::Failure{"Cannot read " + path + ": " + failure.detail + ".", base::ErrorReason::io_error});
    }
    os::ReadFile& file = *read;
    if (file.stat.links > 1 && ctx.ignore && ctx.ignore->settings().ignore_reads)
        return base::fail(base::Failure{
            "Refused: " + path + " has " + std::to_string(file.stat.links - 1) + " other name" +
                (file.stat.links == 2 ? "" : "s") +
                " (hard links), and with --ignore-reads a file that may be an ignored "
                "file under another name is not read or changed. Work on other files, or ask the user to give it a "
                "file of its own (copy it over itself).",
            base::ErrorReason::ignored});
    out.bytes = std::move(file.bytes);
    out.stat = file.stat;
    out.open_file = std::move(file.open_file);
    out.facts = text::analyze(out.bytes);
    out.fingerprint_.reset();
    if (!text_only) return {};
    if (out.facts.bom != text::Bom::none && out.facts.bom != text::Bom::utf8)
        return base::fail(
            base::Failure{std::string("Refused: ") + path + " is " + text::to_string(out.facts.bom) +
                              " text (by its byte-order mark); only UTF-8 and 8-bit text files are supported for now.",
                          base::ErrorReason::not_text});
    if (out.facts.binary) {
        const auto nul = out.bytes.find('\0');
        return base::fail(base::Failure{"Refused: " + path + " looks binary (a NUL byte at offset " +
                                            std::to_string(nul) + "); only text files can be read or changed.",
                                        base::ErrorReason::not_text});
    }
    return {};
}

const ledger::Fingerprint& LoadedFile::fingerprint() const {
    if (!fingerprint_) fingerprint_ = ledger::Fingerprint::of(bytes);
    return *fingerprint_;
}

}  // namespace tools
