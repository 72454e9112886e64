// What grep reports, built as the files' outcomes come in (in walk order): file groups until the
// bounds (max_results, the text budget), then counts only; the summary, what was not searched, and
// the structured result bounded to what a host takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "text/search/line_search.hpp"
#include "tools/tool.hpp"

namespace tools {

// One file searched by a grep worker.
struct GrepOutcome {
    text::FileSearch search;
    std::size_t bytes = 0;  // what it holds, about (counted against window_result_bytes)
    bool too_large = false;
    bool unreadable = false;
    bool linked = false;  // other names (hard links) under --ignore-reads: not read, as `read` refuses it
    std::string shown;
    std::string encoding;  // the file's encoding when it was searched as its text (GBK, UTF-16...); "" for UTF-8
};

// The result as it is built: file groups in walk order until the bounds, then counts only.
class GrepReport {
public:
    GrepReport(std::size_t max_results, std::size_t budget) : max_results_(max_results), budget_(budget) {}

    // False once nothing more will be shown.
    bool add(GrepOutcome& o);

    // `notes`: what the walk left out (a line, or ""), after the counts; `left_out` its JSON (or null).
    // `capped`: the walk reached a cap (said in notes): not every file was searched.
    ToolResult result(const std::string& pattern, const std::string& where, bool literal, const std::string& notes = "",
                      const Json& left_out = nullptr, bool capped = false) const;

    std::string left_out_text;

private:
    std::size_t max_results_, budget_;
    std::size_t json_used_ = 0;  // text_ and files_ in JSON characters
    std::string text_;
    Json files_ = Json::array();
    bool full_ = false;
    static constexpr std::size_t max_failed_named = 10;  // lines the pattern gave up on, named as path:line
    std::vector<std::string> failed_named_;
    std::uint64_t searched_ = 0, binary_ = 0, too_large_ = 0, unreadable_ = 0, failed_lines_ = 0, linked_ = 0;
    std::uint64_t matches_ = 0, files_with_matches_ = 0, shown_matches_ = 0, hidden_matches_ = 0, hidden_files_ = 0;
};

}  // namespace tools
