// The `read` tool: numbered lines of a text file plus the facts an editor needs (encoding, BOM,
// line endings, final newline, hash), recorded as this session's view of the file; several files
// in one call, each in its share of the reply; an image (by its magic bytes) as MCP image content.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>

#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>

#include "os/file_reads.hpp"
#include "os/file_status.hpp"
#include "os/locks.hpp"
#include "os/paths.hpp"
#include "base/wording.hpp"
#include "tools/pipeline/change.hpp"
#include "tools/pipeline/file_access.hpp"
#include "tools/pipeline/placement.hpp"
#include "os/crypto.hpp"
#include "os/hash.hpp"
#include "tools/catalog.hpp"
#include "tools/handlers/read_messages.hpp"
#include "text/bytes/encoding_labels.hpp"
#include "text/bytes/file_facts.hpp"

namespace tools {

struct ReadArgs {
    std::string file_path;                // "" when not given (then file_paths)
    std::vector<std::string> file_paths;  // several files in one call
    std::int64_t offset = 1;
    std::int64_t limit = 2000;
    std::string encoding;  // the file's encoding, named by the model ("" : decided from the file)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReadArgs, file_path, file_paths, offset, limit, encoding)

namespace {

constexpr std::size_t max_line_bytes = 16 * 1024;
// The largest image read returns as image content: 5 MiB is 6.7 MiB of base64, under the 10 MiB
// line the TypeScript client accepts and the 16 MiB --max-message-size default.
constexpr std::size_t max_image_bytes = 5u << 20;

void append_line_number(std::string& out, std::size_t n, bool padded = true) {
    const std::string digits = std::to_string(n);
    if (padded && digits.size() < 6) out.append(6 - digits.size(), ' ');
    out += digits;
    out += '\t';
}

// structuredContent's `text` for a client that shows its model both structuredContent and the
// content[] texts (ResultView::Shows::both): the numbered text is in content[0] only.
constexpr std::string_view text_after_json = "(the numbered lines are in the text after this JSON)";

// The image formats read returns as image content, by their first bytes (not the name's extension).
std::optional<std::string_view> image_type(std::string_view bytes) {
    if (bytes.starts_with("\x89PNG\r\n\x1a\n")) return "image/png";
    if (bytes.starts_with("\xff\xd8\xff")) return "image/jpeg";
    if (bytes.starts_with("GIF87a") || bytes.starts_with("GIF89a")) return "image/gif";
    if (bytes.size() >= 12 && bytes.starts_with("RIFF") && bytes.substr(8, 4) == "WEBP") return "image/webp";
    return std::nullopt;
}

ToolResult image_too_large(const std::string& given, std::string_view mime, std::uint64_t size) {
    return ToolResult::error(
        image_too_large_message(given, mime, base::mebibytes(size), base::mebibytes(max_image_bytes)),
        base::ErrorReason::too_large);
}

// An image too large to return, known by its first bytes and its size, refused before the file is
// read whole (a 200 MB image cost 400 MB to refuse). Nothing when the file is anything else.
std::optional<ToolResult> refuse_large_image(const CallContext& ctx, const std::string& given) {
    auto resolved = ctx.workspace.resolve(given);
    if (!resolved) return std::nullopt;
    auto start = os::read_regular_file(resolved->real, ctx.settings.limits.max_file_size, false, 16);
    if (!start || start->stat.size <= max_image_bytes) return std::nullopt;
    // A file with other names under --ignore-reads: load_text_file's refusal, which says nothing of it.
    if (start->stat.links > 1 && ctx.ignore && ctx.ignore->settings().ignore_reads) return std::nullopt;
    const auto mime = image_type(start->bytes);
    if (!mime) return std::nullopt;
    return image_too_large(given, *mime, start->stat.size);
}

// A file load_text_file refused as not text, whose bytes it read: an image comes back as image
// content (when it is within max_image_bytes); anything else keeps the refusal.
ToolResult read_image(CallContext& ctx, const os::ResolvedPath& path, const std::string& given,
                      const std::string& bytes, base::Failure not_text) {
    const auto mime = image_type(bytes);
    if (!mime) return ToolResult::error(std::move(not_text));
    if (bytes.size() > max_image_bytes) return image_too_large(given, *mime, bytes.size());
    ToolResult result;
    result.text = image_summary(path.display, *mime, bytes.size());
    const ledger::Fingerprint seen = ledger::Fingerprint::of(bytes);
    result.structured = {{"text", result.text},
                         {"file_path", path.real},
                         {"mime_type", *mime},
                         {"sha256", os::sha256_hex(bytes)},
                         {"size_bytes", bytes.size()}};
    result.extra_content.push_back({{"type", "image"}, {"data", os::crypto::to_base64(bytes)}, {"mimeType", *mime}});
    ctx.file_states.record(path.real, seen);
    return result;
}

ToolResult read_file(CallContext& ctx, const ReadArgs& args, std::size_t budget) {
    const std::string& path = args.file_path;
    const std::int64_t offset = args.offset;
    const std::int64_t limit = args.limit;

    LoadedFile file;
    if (ctx.ignore && ctx.ignore->settings().ignore_reads) {
        if (auto resolved = ctx.workspace.resolve(path)) {
            file.path = std::move(resolved).value();
            if (auto refused = refuse_ignored(ctx, file.path, false); !refused)
                return ToolResult::error(std::move(refused).error());
        }
    }
    if (auto refused = refuse_large_image(ctx, path)) return std::move(*refused);
    if (auto loaded = load_text_file(ctx, path, file, args.encoding); !loaded) {
        if (loaded.error().reason == base::ErrorReason::not_text && !file.path.real.empty())
            return read_image(ctx, file.path, path, file.bytes, std::move(loaded).error());
        return ToolResult::error(std::move(loaded).error());
    }
    // An encoding the model named: its bytes must fit it (then later changes are written in it).
    if (!args.encoding.empty()) {
        if (file.encoding.source != os::EncodingSource::requested)
            return ToolResult::error(
                not_in_requested_encoding_message(path, args.encoding, file.encoding.note, file.encoding.how),
                base::ErrorReason::invalid_arguments);
        ctx.file_states.set_encoding(file.path.real, file.encoding.name);
    }

    // A file in another encoding is shown as its text (UTF-8, no BOM): what edits match against.
    const std::string_view body = file.encoding.transcoded ? std::string_view(file.text)
                                                           : std::string_view(file.bytes).substr(file.facts.bom_size);
    const bool valid_utf8 = file.encoding.name != os::unknown_8bit;
    std::size_t total_lines = 0;
    text::for_each_line(body, [&](const text::LineSpan&) {
        ++total_lines;
        return true;
    });
    const auto first = static_cast<std::size_t>(offset);
    if (first > total_lines && !(first == 1 && total_lines == 0)) {
        return ToolResult::error(offset_past_end_message(first, path, total_lines),
                                 base::ErrorReason::invalid_arguments);
    }

    const std::size_t wanted_last = first + static_cast<std::size_t>(limit) - 1;
    std::string out;
    const bool padded = !ctx.scope.result_view.escaped;
    std::size_t line_no = 0, last_shown = 0;
    bool cut = false, over_budget = false;
    text::for_each_line(body, [&](const text::LineSpan& span) {
        ++line_no;
        if (line_no < first) return true;
        if (line_no > wanted_last) return false;
        std::string_view line = body.substr(span.begin, span.end - span.begin);
        std::string shown;
        std::size_t dropped = 0;
        if (line.size() > max_line_bytes) {
            const std::size_t keep = base::utf8_prefix_length(line, max_line_bytes);
            dropped = line.size() - keep;
            line = line.substr(0, keep);
        }
        shown = valid_utf8 ? std::string(line) : text::to_valid_utf8(line);
        if (dropped) {
            shown += " \xE2\x80\xA6 [line cut: " + std::to_string(dropped) + " more bytes]";
            cut = true;
        }
        if (!out.empty() && out.size() + shown.size() + 8 > budget) {
            over_budget = true;
            return false;
        }
        if (!out.empty()) out += '\n';
        append_line_number(out, line_no, padded);
        out += shown;
        last_shown = line_no;
        return true;
    });

    const text::FileFacts text_facts = file.encoding.transcoded ? text::analyze(file.text) : file.facts;
    ToolResult result;
    result.structured = {
        {"file_path", file.path.real},
        {"total_lines", total_lines},
        {"start_line", last_shown ? first : 0},
        {"end_line", last_shown},
        {"truncated", cut || over_budget || last_shown < total_lines},
        {"encoding", file.encoding.name},
        {"bom", file.facts.bom != text::Bom::none},
        {"line_ending", text::to_string(text_facts.line_ending)},
        {"final_newline", text_facts.final_newline},
        {"sha256", os::sha256_hex(file.bytes)},
        {"size_bytes", file.bytes.size()},
    };
    // How the encoding was decided, when it was not plain UTF-8: the model then knows its text was
    // converted (and is written back in that encoding), or why the bytes are shown raw.
    if (file.encoding.source != os::EncodingSource::utf8) result.structured["encoding_decided_by"] = file.encoding.how;
    if (!file.encoding.note.empty() || file.encoding.source == os::EncodingSource::fallback)
        result.structured["encoding_note"] = encoding_note(file.encoding.note, file.encoding.source);
    // content[1]: the facts alone, for hosts that show only content[]; structuredContent also
    // carries the numbered text, for hosts that show their model only structuredContent. A client
    // that shows both sees the facts in the JSON and the text after it, each once.
    if (ctx.scope.result_view.shows == ResultView::Shows::both) {
        result.structured["text"] = text_after_json;
    } else {
        result.extra_text = result.structured.dump(-1, ' ', false, Json::error_handler_t::replace);
        result.structured["text"] = out;
    }
    result.text = std::move(out);
    const ledger::Fingerprint seen = file.fingerprint();  // before the bytes move
    ctx.file_states.record_with_bytes(file.path.real, seen, std::move(file.bytes));
    return result;
}

// Whether a change in `folder` was being committed (by this server or another mcp-edit), then waited
// for: at most 2 s, polling on a timer, so the io thread serves everything else meanwhile. Windows
// replaces a file in two steps, with a moment where its name is missing (os::folder_being_committed);
// a read that found no file there reads again after the commit. POSIX: false at once.
asio::awaitable<bool> waited_for_commit_in(const std::string& folder) {
    if (!os::folder_being_committed(folder)) co_return false;
    asio::steady_timer pause(co_await asio::this_coro::executor);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    std::chrono::milliseconds step{1};
    do {
        pause.expires_after(step);
        co_await pause.async_wait(asio::use_awaitable);
        step = std::min(step * 2, std::chrono::milliseconds(10));
    } while (os::folder_being_committed(folder) && std::chrono::steady_clock::now() < until);
    co_return true;
}

// One file of a read, under its lane: a read sees every change that arrived before it, except one
// that waits for a human (then the read is served from the disk at once, and may meet that change's
// commit: see waited_for_commit_in).
asio::awaitable<ToolResult> read_one(CallContext& ctx, const ReadArgs& args, std::size_t budget) {
    ledger::FileLanes::Guard lane;
    const auto path = ctx.workspace.resolve(args.file_path);  // when it fails, read_file says why
    if (path) lane = co_await ctx.lanes.acquire_for_read(lane_key(path->real));
    const bool run_inline = path && WorkPlacement::inline_now(ctx, {os::stat_path(path->real).size});
    const auto read = [&ctx, &args, budget] { return read_file(ctx, args, budget); };
    ToolResult result = co_await WorkPlacement::run(ctx, run_inline, read);
    if (path && result.is_error && result.reason == base::ErrorReason::not_found) {
        const std::string folder = os::parent_of(path->real);
        if (co_await waited_for_commit_in(folder)) result = co_await WorkPlacement::run(ctx, run_inline, read);
    }
    co_return result;
}

// The helpers below are plain functions: GCC 12 rejects braced lists of strings inside a coroutine.
Json failed_file(const std::string& path, const ToolResult& part) {
    return {{"file_path", path}, {"error", part.text}, {"reason", base::to_string(part.reason)}};
}

void finish_many(ToolResult& out, std::size_t count, std::size_t failed, Json files,
                 const std::vector<std::string>& not_read, const ResultView& view, std::size_t budget) {
    const std::size_t tried = count - not_read.size();
    out.text = read_many_summary(tried - failed, count, failed, not_read.size()) + ".\n\n" + out.text;
    if (!not_read.empty()) {
        // The names, as many as fit a line; all of them in structuredContent's not_read.
        std::string names;
        std::size_t shown = 0;
        for (const auto& path : not_read) {
            if (shown > 0 && names.size() + path.size() > 600) break;
            names += (names.empty() ? "" : ", ") + path;
            ++shown;
        }
        if (shown < not_read.size()) names += " and " + std::to_string(not_read.size() - shown) + " more";
        out.text += not_fitting_note(not_read.size(), budget, names);
    }
    if (view.shows == ResultView::Shows::both)
        out.structured = {{"text", text_after_json}, {"files", std::move(files)}};
    else
        out.structured = {{"text", out.text}, {"files", std::move(files)}};
    if (!not_read.empty()) out.structured["not_read"] = not_read;
}

// file_paths: each file in turn (one lane at a time), each within an equal share of what is left
// of the reply's budget (the text and each file's facts, which clients such as Codex show in place
// of the text), and at most max_image_bytes of images in all; a file that fails is reported in its
// place. When what is left cannot hold another file, the rest are named, not read.
asio::awaitable<ToolResult> read_many(CallContext& ctx, const ReadArgs& args, std::vector<std::string> paths) {
    constexpr std::size_t min_share = 1024;
    const std::size_t budget = ctx.max_result_text();
    ToolResult out;
    Json files = Json::array();
    std::vector<std::string> not_read;
    std::size_t image_bytes = 0, failed = 0, facts_bytes = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const std::string& path = paths[i];
        if (auto cancelled = if_cancelled(ctx)) co_return std::move(*cancelled);
        const std::size_t used = out.text.size() + facts_bytes;
        if (i > 0 && used + min_share > budget) {
            not_read.assign(paths.begin() + static_cast<std::ptrdiff_t>(i), paths.end());
            break;
        }
        const std::size_t share =
            std::max<std::size_t>((budget - std::min(budget, used)) / (paths.size() - i), min_share);
        ReadArgs one = args;
        one.file_path = path;
        one.file_paths.clear();
        ToolResult part = co_await read_one(ctx, one, share);
        if (!out.text.empty()) out.text += "\n\n";
        out.text += "==> " + path + " <==\n";
        if (!part.is_error && !part.extra_content.empty()) {
            const std::size_t size = part.structured.value("size_bytes", std::size_t{0});
            if (image_bytes + size > max_image_bytes) {
                part = ToolResult::error(images_fill_reply_message(base::mebibytes(max_image_bytes), path),
                                         base::ErrorReason::too_large);
            } else {
                image_bytes += size;
            }
        }
        if (part.is_error) {
            ++failed;
            out.text += "[not read] " + part.text;
            files.push_back(failed_file(path, part));
            facts_bytes += files.back().dump().size();
            continue;
        }
        out.text += part.text;
        Json facts = std::move(part.structured);
        facts.erase("text");
        facts_bytes += facts.dump().size();
        files.push_back(std::move(facts));
        for (auto& item : part.extra_content) out.extra_content.push_back(std::move(item));
    }
    finish_many(out, paths.size(), failed, std::move(files), not_read, ctx.scope.result_view, budget);
    co_return out;
}

}  // namespace

asio::awaitable<ToolResult> run_read(CallContext& ctx, ReadArgs args) {
    if (!args.encoding.empty() && !text::find_encoding(args.encoding))
        co_return ToolResult::error(unknown_encoding_message(args.encoding), base::ErrorReason::invalid_arguments);
    if (args.file_paths.empty()) {
        if (args.file_path.empty())
            co_return ToolResult::error(read_needs_file_message(), base::ErrorReason::invalid_arguments);
        co_return co_await read_one(ctx, args, ctx.max_result_text());
    }
    std::vector<std::string> paths;
    if (!args.file_path.empty()) paths.push_back(args.file_path);
    for (auto& p : args.file_paths) paths.push_back(p);
    co_return co_await read_many(ctx, args, std::move(paths));
}

const ToolSpec& read_tool() {
    static const ToolSpec spec =
        define_tool("read", &run_read,
                    {
                        .kind = ToolKind::read_lines,
                        .safety_arguments = "",
                        .summary = "Read a file's lines, numbered, with its encoding and line endings",
                    });
    return spec;
}

}  // namespace tools
