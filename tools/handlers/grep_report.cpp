// GrepReport (grep_report.hpp): a searched file's lines added while they fit, and the result's text
// and structured content with its counts.
#include "tools/handlers/grep_report.hpp"

#include "base/wording.hpp"
#include "tools/pipeline/listing.hpp"
#include "tools/pipeline/listing_messages.hpp"

namespace tools {

// Counts the file; adds its lines while they fit (false once nothing more will be shown).
bool GrepReport::add(GrepOutcome& o) {
    ++searched_;
    if (o.too_large) ++too_large_;
    if (o.unreadable) ++unreadable_;
    if (o.linked) ++linked_;
    if (o.search.binary) ++binary_;
    if (o.search.failed_lines) {
        failed_lines_ += o.search.failed_lines;
        for (const std::size_t line : o.search.failed_at)
            if (failed_named_.size() < max_failed_named) failed_named_.push_back(o.shown + ":" + std::to_string(line));
    }
    const std::size_t found = o.search.matching_lines;
    if (found == 0) return !full_;
    matches_ += found;
    ++files_with_matches_;
    std::size_t shown_here = 0;
    if (!full_ && !o.search.lines.empty()) {
        std::string group = (text_.empty() ? "" : "\n") + o.shown + grep_encoding_part(o.encoding) + "\n";
        // The group's text in JSON, and its entry in `files`: {"lines":[..],"matches":N,"path":".."},
        // and "encoding" for a file in another encoding
        std::size_t group_json = json_escaped_size(group) + json_escaped_size(o.shown) + 48 +
                                 (o.encoding.empty() ? 0 : o.encoding.size() + 14);  // ,"encoding":"..."
        Json lines = Json::array();
        for (const auto& line : o.search.lines) {
            if (json_used_ + group_json > budget_) break;
            if (line.match && shown_matches_ >= max_results_) break;
            std::string entry = (line.gap_before ? "--\n" : "") + std::to_string(line.number) +
                                (line.match ? ":" : "-") + line.text + "\n";
            const std::size_t entry_json = json_escaped_size(entry) + (line.match ? 21 : 0);
            if (json_used_ + group_json + entry_json > budget_) break;
            group += entry;
            group_json += entry_json;
            if (line.match) {
                lines.push_back(line.number);
                ++shown_matches_;
                ++shown_here;
            }
        }
        if (shown_here > 0) {
            text_ += group;
            json_used_ += group_json;
            files_.push_back({{"path", o.shown}, {"matches", found}, {"lines", std::move(lines)}});
            if (!o.encoding.empty()) files_.back()["encoding"] = o.encoding;
        }
    }
    if (shown_here < found) {
        hidden_matches_ += found - shown_here;
        ++hidden_files_;
        full_ = true;  // a file not shown whole: later files would break the order
    }
    if (shown_matches_ >= max_results_ || json_used_ >= budget_) full_ = true;
    return !full_;
}

// `notes`: what the walk left out (a line, or ""), after the counts; `left_out` its JSON (or null).
// `capped`: the walk reached a cap (said in notes): not every file was searched.
ToolResult GrepReport::result(const std::string& pattern, const std::string& where, bool literal,
                              const std::string& notes, const Json& left_out, bool capped) const {
    std::string head;
    if (matches_ == 0) {
        head = grep_no_matches_head(literal, shown_text(pattern),
                                    searched_ - binary_ - too_large_ - unreadable_ - linked_, where);
    } else {
        head = grep_matches_head(matches_, files_with_matches_, where, searched_, hidden_matches_ ? shown_matches_ : 0);
    }
    std::string tail;
    if (hidden_matches_) tail += grep_more_matches_line(hidden_matches_, hidden_files_);
    std::vector<std::string> skipped;
    if (binary_) skipped.push_back(base::count_of(binary_, "binary file", "binary files"));
    if (too_large_) skipped.push_back(grep_over_size_part(too_large_));
    if (unreadable_) skipped.push_back(grep_unreadable_part(unreadable_));
    if (linked_) skipped.push_back(grep_hard_links_part(linked_));
    if (!skipped.empty()) {
        tail += "\nNot searched: ";
        for (std::size_t i = 0; i < skipped.size(); ++i) tail += (i ? ", " : "") + skipped[i];
        tail += ".";
    }
    if (failed_lines_) {
        std::string named;
        for (std::size_t i = 0; i < failed_named_.size(); ++i) named += (i ? ", " : "") + failed_named_[i];
        tail += grep_backtracking_line(failed_lines_, named,
                                       failed_lines_ > failed_named_.size() ? failed_lines_ - failed_named_.size() : 0);
    }
    ToolResult r;
    r.text = head + (text_.empty() ? "" : "\n" + text_) + tail;
    while (!r.text.empty() && r.text.back() == '\n') r.text.pop_back();
    if (!notes.empty()) r.text += "\n" + notes;
    r.structured = {
        {"text", r.text},
        {"matches", matches_},
        {"files_with_matches", files_with_matches_},
        {"shown_matches", shown_matches_},
        {"more_matches", hidden_matches_},
        {"more_files", hidden_files_},
        {"files_searched", searched_},
        {"binary_skipped", binary_},
        {"truncated", hidden_matches_ > 0},
        {"complete", !capped && failed_lines_ == 0 && linked_ == 0 && too_large_ == 0 && unreadable_ == 0},
        {"files", files_},
    };
    if (!left_out.is_null()) r.structured["left_out"] = left_out;
    // The bound is checked on what the host serializes; past it the lines are cut, the tail kept.
    if (r.structured.dump().size() > max_structured_json) {
        while (!tail.empty() && tail.front() == '\n') tail.erase(0, 1);
        if (!notes.empty()) tail += "\n" + notes;
        r.text = fit_structured_text(r.structured, head + (text_.empty() ? "" : "\n" + text_), tail,
                                     "narrow with glob or path.");
    }
    return r;
}

}  // namespace tools
