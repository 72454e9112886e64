// What `list` and `find` share on top of os/directory_walk: the folder a call starts from
// (resolved, checked, refused when ignored under --ignore-reads), the tally of what was left out
// and its wording, sizes and names as a model reads them, and the result's byte budget.
#pragma once

#include "base/wording.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "base/result.hpp"
#include "os/directory_walk.hpp"
#include "tools/tool.hpp"

namespace tools {

// One listing result's text stays under this many characters of JSON (escapes counted, see
// json_escaped_size; and under Limits::max_result_text): about 8,000 tokens, enough to see a
// tree's shape; the rest is counted and named, not dumped.
constexpr std::size_t listing_text_budget = 32 * 1024;

// A result's structuredContent, serialized as nlohmann dump() (and JSON.stringify) writes it,
// stays under this many characters: Claude Code hands its model only a 2 KB preview of a result
// whose JSON is over 50,000, and hands it only structuredContent when there is one.
constexpr std::size_t max_structured_json = 45000;

// The unreadable folders a list or find result names, at most; the rest are counted.
constexpr std::size_t max_unreadable_named = 10;

// How many characters `text` takes inside a JSON string: `"` `\` and \b \f \n \r \t count 2,
// other control characters 6 (\u00XX), every other byte 1 (UTF-8 stays as it is).
std::size_t json_escaped_size(std::string_view text);

// Sets structured["text"] to body + notes (notes after a blank line) and returns that text; when
// structured.dump() would pass max_structured_json, cuts the body at a line end (and the notes,
// if they alone take over half the room) and says so in a line that ends with `narrow`.
std::string fit_structured_text(Json& structured, std::string_view body, std::string_view notes,
                                std::string_view narrow);

struct ListingStart {
    os::ResolvedPath folder;
    const std::string* root = nullptr;
};

// The existing folder `path` ("" = the first root) inside the roots. Fails with a message naming
// the next call: a file (read it), a missing path, an ignored folder under --ignore-reads.
base::Result<ListingStart> resolve_listing_start(const CallContext& ctx, const std::string& path,
                                                 std::string_view tool);

// The walk's options for `start` with the call's ignore rules and cancellation.
os::WalkOptions listing_walk_options(const CallContext& ctx, const ListingStart& start);

// `relative` (from the walk's start) as the roots show it: what read and find accept.
std::string listing_path(const ListingStart& start, std::string_view relative);

// A file name or path for display: bytes that are not UTF-8 become U+FFFD.
std::string shown_text(std::string_view bytes);

// A path or name as listings show it: quoted as git quotes it (text/path_quoting.hpp) when it
// holds a control character, `"`, `\` or bytes that are not UTF-8, else as it is.
std::string shown_path(std::string_view bytes);

// The caps the walk reached, in words for a model, naming the folders and the call that sees past
// them ("" when none was reached): folders too deep (`depth_is_cap` false: the depth was the
// caller's own choice, said elsewhere), folders with more entries than are read, links to
// folders past the followed-links bound. `tool` names the call to make next.
std::string walk_caps_text(const os::WalkSummary& summary, const ListingStart& start, std::size_t max_depth,
                           bool depth_is_cap, std::string_view tool);

// 0 B, 812 B, 4.2 KiB, 13 MiB, 1.1 GiB.
std::string compact_size(std::uint64_t bytes);

// What a listing left out: `.git` folders, entries the ignore rules cover (grouped by rule, at
// most max_rules named; with --ignore-reads counted only, so no ignored name leaks), hidden ones.
class LeftOut {
public:
    static constexpr std::size_t max_rules = 32;
    explicit LeftOut(bool name_rules) : name_rules_(name_rules) {}
    void add(const os::IgnoreRefusal& refusal);
    void add_hidden(std::uint64_t n) { hidden_ += n; }
    bool empty() const { return git_ == 0 && ignored_ == 0 && hidden_ == 0; }
    // "Left out: 1 .git folder; 3 entries the ignore rules cover (`build/` in .gitignore line 1: 1; ...); 4 hidden
    // entries (include_hidden: true shows them)." ("" when nothing was left out)
    std::string text(const os::Workspace& workspace, const std::string& root) const;
    Json json(const os::Workspace& workspace, const std::string& root) const;

private:
    bool name_rules_;
    std::uint64_t git_ = 0, ignored_ = 0, hidden_ = 0, unnamed_rules_ = 0;
    std::map<std::tuple<std::string, std::size_t, std::string>, std::uint64_t> rules_;  // (file, line, rule) -> count
};

}  // namespace tools
