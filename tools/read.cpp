// The `read` tool: numbered lines of a text file plus the facts an editor needs (encoding, BOM,
// line endings, final newline, hash), recorded as this session's view of the file.
#include <algorithm>

#include "os/platform.hpp"
#include "tools/change.hpp"
#include "tools/file_access.hpp"
#include "tools/placement.hpp"
#include "os/hash.hpp"
#include "tools/registry.hpp"
#include "text/file_facts.hpp"

namespace tools {

namespace {

constexpr std::size_t max_line_bytes = 16 * 1024;

// The longest prefix of `s` no longer than `n` bytes that does not split a UTF-8 sequence.
std::size_t utf8_cut(std::string_view s, std::size_t n) {
    if (n >= s.size()) return s.size();
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return n;
}

void append_line_number(std::string& out, std::size_t n) {
    const std::string digits = std::to_string(n);
    if (digits.size() < 6) out.append(6 - digits.size(), ' ');
    out += digits;
    out += '\t';
}

ToolResult read_file(CallContext& ctx, const ReadArgs& args) {
    const std::string& path = args.file_path;
    const std::int64_t offset = args.offset;
    const std::int64_t limit = args.limit;

    LoadedFile file;
    if (ctx.ignore && ctx.ignore->settings().ignore_reads) {
        os::PathError path_error;
        if (ctx.workspace.resolve(path, file.path, path_error))
            if (auto refused = refuse_ignored(ctx, file.path, false); !refused) return ToolResult::error(std::move(refused).error());
    }
    if (auto loaded = load_text_file(ctx, path, file); !loaded) return ToolResult::error(std::move(loaded).error());

    const std::string_view body = std::string_view(file.bytes).substr(file.facts.bom_size);
    const bool valid_utf8 = text::is_valid_utf8(body);
    std::size_t total_lines = 0;
    text::for_each_line(body, [&](const text::LineSpan&) {
        ++total_lines;
        return true;
    });
    const auto first = static_cast<std::size_t>(offset);
    if (first > total_lines && !(first == 1 && total_lines == 0)) {
        return ToolResult::error("offset " + std::to_string(first) + " is past the end of " + path + ", which has " +
                                 std::to_string(total_lines) + " line" + (total_lines == 1 ? "" : "s") +
                                 ". Call read with offset between 1 and " + std::to_string(std::max<std::size_t>(total_lines, 1)) + ".",
                                 base::ErrorReason::invalid_arguments);
    }

    const std::size_t budget = ctx.limits.max_result_text;
    const std::size_t wanted_last = first + static_cast<std::size_t>(limit) - 1;
    std::string out;
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
            const std::size_t keep = utf8_cut(line, max_line_bytes);
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
        append_line_number(out, line_no);
        out += shown;
        last_shown = line_no;
        return true;
    });

    ToolResult result;
    result.structured = {
        {"file_path", file.path.real},
        {"total_lines", total_lines},
        {"start_line", last_shown ? first : 0},
        {"end_line", last_shown},
        {"truncated", cut || over_budget || last_shown < total_lines},
        {"encoding", valid_utf8 ? "utf-8" : "unknown-8bit"},
        {"bom", file.facts.bom != text::Bom::none},
        {"line_ending", text::to_string(file.facts.line_ending)},
        {"final_newline", file.facts.final_newline},
        {"sha256", os::sha256_hex(file.bytes)},
        {"size_bytes", file.bytes.size()},
    };
    // content[1]: the facts alone, for hosts that show only content[]; structuredContent also
    // carries the numbered text, for hosts that show their model only structuredContent.
    result.extra_text = result.structured.dump(-1, ' ', false, Json::error_handler_t::replace);
    result.structured["text"] = out;
    result.text = std::move(out);
    const Fingerprint seen = file.fingerprint();  // before the bytes move
    ctx.file_states.record_with_bytes(file.path.real, seen, std::move(file.bytes));
    return result;
}

}  // namespace

asio::awaitable<ToolResult> run_read(CallContext& ctx, ReadArgs args) {
    // Reads take the file's lane too, so a read sees every change that arrived before it;
    // except a change that waits for a human: then the read is served from the disk at once.
    FileLanes::Guard lane;
    os::ResolvedPath path;
    os::PathError ignored;
    if (ctx.workspace.resolve(args.file_path, path, ignored))
        lane = co_await ctx.lanes.acquire_for_read(lane_key(path.real));
    const bool run_inline = !path.real.empty() && WorkPlacement::inline_now(ctx, {platform::stat_path(path.real).size});
    co_return co_await WorkPlacement::run(ctx, run_inline, [&ctx, &args] { return read_file(ctx, args); });
}

}  // namespace tools
