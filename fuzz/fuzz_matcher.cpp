// libFuzzer target: text::match_edit with fuzzer-chosen file bytes, old and new text, replace_all
// and start-line hint; then the splice (whole, and as one span with its diff), and the same edit
// as an apply_diff block through the planner.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz/fuzz_common.hpp"
#include "text/bytes/byte_scan.hpp"
#include "text/bytes/byte_search.hpp"
#include "text/bytes/file_facts.hpp"
#include "text/bytes/lines.hpp"
#include "text/match/matcher.hpp"
#include "text/patch/patch_search_replace.hpp"
#include "text/bytes/splice.hpp"
#include "text/bytes/spliced_bytes.hpp"
#include "text/diff/unified_diff.hpp"

namespace {

// `lines` (each ended by "\n") as SEARCH/REPLACE content, markers escaped; false when a line cannot
// be written (a CR, or a backslash before a marker, which the format has no way to say).
bool escape_into(const std::string& lines, std::string& out) {
    static constexpr std::string_view kMarkers[] = {"<<<<<<<", "=======",      ">>>>>>>",
                                                    "-------", ":start_line:", ":end_line:"};
    std::size_t b = 0;
    while (b < lines.size()) {
        const std::size_t e = lines.find('\n', b);
        const std::string_view line = std::string_view(lines).substr(b, e - b);
        if (line.find('\r') != std::string_view::npos) return false;
        const std::string_view rest = !line.empty() && line[0] == '\\' ? line.substr(1) : line;
        bool marker = false;
        for (const std::string_view m : kMarkers) marker = marker || rest.starts_with(m);
        if (marker && rest.size() != line.size()) return false;
        if (marker) out += '\\';
        out.append(line);
        out += '\n';
        b = e + 1;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    const bool replace_all = in.ConsumeBool();
    const bool hinted = in.ConsumeBool();
    const std::size_t hint = in.ConsumeIntegralInRange<std::size_t>(0, 64);
    const double threshold = in.ConsumeBool() ? 0.5 + in.ConsumeIntegralInRange<int>(0, 50) / 100.0 : 1.0;
    const std::string old_string = in.ConsumeRandomLengthString(256);
    const std::string new_string = in.ConsumeRandomLengthString(256);
    const std::string file = in.ConsumeRemainingBytesAsString();

    // The byte helpers under the matcher agree with plain references.
    for (std::size_t from : {std::size_t{0}, hint, file.size()})
        fuzz::require(text::find_bytes(file, old_string, from) ==
                      (from > file.size() ? std::string::npos : file.find(old_string, from)));
    const auto lf = static_cast<std::size_t>(std::count(file.begin(), file.end(), '\n'));
    const text::ByteCensus census = text::census(file);
    fuzz::require(text::count_byte(file, '\n') == lf && census.lf == lf);
    fuzz::require(census.cr == (file.find('\r') != std::string::npos));
    fuzz::require(census.nul == (file.find('\0') != std::string::npos));

    text::MatchOptions options;
    if (hinted) options.start_line_hint = hint;
    auto m = text::match_edit(file, text::EditSpec{old_string, new_string, replace_all}, options);
    std::size_t bom = 0;
    text::detect_bom(file, &bom);
    if (m.ok()) {
        const text::Match& match = m.value();
        fuzz::require(!match.replacements.empty());
        fuzz::require(match.lines.size() == match.replacements.size());
        fuzz::require(replace_all || match.replacements.size() == 1);
        std::size_t previous_end = bom;
        for (std::size_t i = 0; i < match.replacements.size(); ++i) {
            const text::Replacement& r = match.replacements[i];
            fuzz::require(r.begin >= previous_end && r.begin <= r.end && r.end <= file.size());
            fuzz::require(match.lines[i].first >= 1 && match.lines[i].first <= match.lines[i].last);
            previous_end = r.end;
            // Without CR and BOM the exact tier's range is old_string itself; or old_string with the
            // blanks between it and its line's start or end, which new_string states again (they are
            // taken, not doubled); or old_string with each U+FFFD standing for one byte that is not
            // UTF-8 (the stand-in search).
            const std::string_view range = std::string_view(file).substr(r.begin, r.end - r.begin);
            const std::size_t inside = range.find(old_string);
            const auto blanks = [](std::string_view s) { return std::all_of(s.begin(), s.end(), text::is_blank_byte); };
            const bool with_line_blanks =
                inside != std::string_view::npos && blanks(range.substr(0, inside)) &&
                blanks(range.substr(inside + old_string.size())) &&
                (inside == 0 || r.begin == 0 || file[r.begin - 1] == '\n') &&
                (inside + old_string.size() == range.size() || r.end == file.size() || file[r.end] == '\n');
            if (match.tier == text::MatchTier::exact && bom == 0 && file.find('\r') == std::string::npos &&
                old_string.find('\r') == std::string::npos && !with_line_blanks) {
                std::size_t stand_ins = 0;
                for (std::size_t at = old_string.find("\xEF\xBF\xBD"); at != std::string::npos;
                     at = old_string.find("\xEF\xBF\xBD", at + 3))
                    ++stand_ins;
                fuzz::require(stand_ins > 0 && r.end - r.begin == old_string.size() - 2 * stand_ins);
            }
        }
        auto spliced = text::splice(file, match.replacements);
        fuzz::require(spliced.ok());
        fuzz::require(spliced.value().substr(0, bom) == file.substr(0, bom));
        // The same change kept as one span (what an edit plans): the same bytes, and the diff of the
        // lines around the span is the whole files' diff.
        const auto span = text::splice_span(file, match.replacements, text::dominant_newline(text::analyze(file)));
        fuzz::require(span.ok());
        fuzz::require(span->over(file) == spliced.value());
        text::DiffOptions diff_options;
        diff_options.old_path = "f";
        diff_options.context = hint % 5;
        const text::UnifiedDiff whole = text::unified_diff(file, spliced.value(), diff_options);
        const text::UnifiedDiff windowed = text::unified_diff(file, *span, diff_options);
        fuzz::require(windowed.text == whole.text && windowed.additions == whole.additions &&
                      windowed.removals == whole.removals && windowed.first_changed_line == whole.first_changed_line);
    } else {
        fuzz::require(!m.error().message.empty());
    }

    // The same edit as one whole-line block of apply_diff.
    text::Patch patch;
    patch.format = text::PatchFormat::search_replace;
    patch.block_count = 1;
    text::FilePatch f;
    text::PatchBlock b;
    b.index = 1;
    b.patch_line = 1;
    b.old_text = old_string.empty() || old_string.back() == '\n' ? old_string : old_string + "\n";
    b.new_text = new_string.empty() || new_string.back() == '\n' ? new_string : new_string + "\n";
    if (hinted) b.start_line = hint;
    f.blocks.push_back(std::move(b));
    patch.files.push_back(std::move(f));
    fuzz::plan_all(patch, file, threshold);

    // Oracle: in a plain LF file whose lines old_text occurs as exactly once (starting at a line
    // start), the block must apply exactly there, as a plain string replacement would.
    const text::PatchBlock& block = patch.files[0].blocks[0];
    const std::string& old_text = block.old_text;
    const std::string& new_text = block.new_text;
    const bool plain = bom == 0 && file.find('\r') == std::string::npos && old_text.find('\r') == std::string::npos &&
                       new_text.find('\r') == std::string::npos && !file.empty() && file.back() == '\n';
    if (plain && !old_text.empty() && old_text != new_text) {
        const std::size_t at = file.find(old_text);
        if (at != std::string::npos && file.find(old_text, at + 1) == std::string::npos &&
            (at == 0 || file[at - 1] == '\n')) {
            auto plan = text::plan_file_patch(std::string_view(file), patch.files[0], text::PlanOptions{});
            fuzz::require(plan.ok());
            std::string expected = file;
            expected.replace(at, old_text.size(), new_text);
            fuzz::require(plan->bytes == expected);
            fuzz::require(plan->blocks.size() == 1 && plan->blocks[0].match == text::BlockMatch::exact);
        }
    }

    // Oracle: the block written as a SEARCH/REPLACE patch reads back as the same lines.
    std::string sr = "<<<<<<< SEARCH\n";
    bool visible = false;
    for (const char c : old_text) visible = visible || (c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\v');
    if (visible && escape_into(old_text, sr)) {
        sr += "=======\n";
        if (escape_into(new_text, sr)) {
            sr += ">>>>>>> REPLACE\n";
            auto parsed = text::parse_search_replace(sr);
            fuzz::require(parsed.ok());
            fuzz::require(parsed->files.size() == 1 && parsed->files[0].blocks.size() == 1);
            fuzz::require(parsed->files[0].blocks[0].old_text == old_text);
            fuzz::require(parsed->files[0].blocks[0].new_text == new_text);
        }
    }
    return 0;
}
