// The parts of list and find that are the same: the start folder, what was left out, sizes.
#include "tools/pipeline/listing.hpp"

#include <algorithm>
#include <cstdio>

#include "text/bytes/file_facts.hpp"
#include "text/paths/path_quoting.hpp"
#include "tools/pipeline/listing_messages.hpp"

namespace tools {

base::Result<ListingStart> resolve_listing_start(const CallContext& ctx, const std::string& path,
                                                 std::string_view tool) {
    const std::string given = path.empty() ? "." : path;
    ListingStart start;
    auto folder = ctx.workspace.resolve(given);
    if (!folder) return base::fail(base::Failure{std::move(folder.error().message), folder.error().reason});
    start.folder = std::move(folder).value();
    if (!start.folder.exists)
        return base::fail(
            base::Failure{listing_folder_missing_message(tool, start.folder.display), base::ErrorReason::not_found});
    start.root = ctx.workspace.root_of(start.folder.real);
    const os::FileStat stat = os::stat_path(start.folder.real);
    if (stat.kind == os::FileKind::regular)
        return base::fail(
            base::Failure{listing_file_not_folder_message(tool, start.folder.display), base::ErrorReason::not_a_file});
    if (stat.kind != os::FileKind::directory || !start.root)
        return base::fail(base::Failure{listing_not_folder_message(tool, start.folder.display, os::describe(stat.kind)),
                                        base::ErrorReason::not_a_file});
    if (ctx.ignore && ctx.ignore->settings().ignore_reads)
        if (auto refusal = ctx.ignore->refuse_listing(*start.root, start.folder.real, true);
            refusal && refusal->kind == os::IgnoreRefusal::Kind::rule)
            return base::fail(
                base::Failure{listing_ignored_message(tool, start.folder.display), base::ErrorReason::ignored});
    return start;
}

os::WalkOptions listing_walk_options(const CallContext& ctx, const ListingStart& start) {
    os::WalkOptions options;
    options.start = start.folder.real;
    options.workspace = &ctx.workspace;
    options.ignore = ctx.ignore;
    options.cancelled = ctx.scope.cancelled.get();
    return options;
}

std::string listing_path(const ListingStart& start, std::string_view relative) {
    const std::string& base = start.folder.display;
    std::string out;
    if (base.empty() || base == ".") {
        out = std::string(relative);
    } else {
        out.reserve(base.size() + 1 + relative.size());
        out = base;
        if (out.back() != '/') out += '/';
        out.append(relative);
    }
    return shown_path(out);
}

std::size_t json_escaped_size(std::string_view text) {
    std::size_t n = 0;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
            n += 2;
        else
            n += u < 0x20 ? 6 : 1;
    }
    return n;
}

namespace {

// The length of the longest prefix of `s` whose JSON takes at most `room` characters: ending
// after a '\n' when whole_lines, else on a UTF-8 character boundary.
std::size_t prefix_within(std::string_view s, std::size_t room, bool whole_lines) {
    std::size_t used = 0, keep = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        used += json_escaped_size(s.substr(i, 1));
        if (used > room) break;
        const bool boundary =
            whole_lines ? s[i] == '\n' : i + 1 == s.size() || (static_cast<unsigned char>(s[i + 1]) & 0xC0) != 0x80;
        if (boundary) keep = i + 1;
    }
    return keep;
}

std::string joined(std::string_view body, std::string_view notes) {
    std::string out(body);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    if (!notes.empty()) {
        if (!out.empty()) out += "\n\n";
        out.append(notes);
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

}  // namespace

std::string fit_structured_text(Json& structured, std::string_view body, std::string_view notes,
                                std::string_view narrow) {
    std::string text = joined(body, notes);
    structured["text"] = "";
    const std::size_t overhead = structured.dump().size();
    if (overhead + json_escaped_size(text) <= max_structured_json) {
        structured["text"] = text;
        return text;
    }
    const std::size_t room = overhead < max_structured_json ? max_structured_json - overhead : 0;
    std::string kept_notes(notes.substr(0, prefix_within(notes, room / 2, false)));
    if (kept_notes.size() < notes.size()) kept_notes += "\xE2\x80\xA6";
    // The cut line's counts take at most 20 digits each; reserve for them and the separators.
    const std::string cut_words = " more lines of this result cut: its JSON stays under 45,000 characters; ";
    const std::size_t reserve =
        json_escaped_size(kept_notes) + json_escaped_size(cut_words) + json_escaped_size(narrow) + 64;
    const std::size_t keep = prefix_within(body, room > reserve ? room - reserve : 0, true);
    const std::string_view rest = body.substr(keep);
    std::size_t cut_lines = static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '\n'));
    if (!rest.empty() && rest.back() != '\n') ++cut_lines;
    std::string cut(body.substr(0, keep));
    if (cut_lines) cut += "\xE2\x80\xA6 " + base::with_commas(cut_lines) + cut_words + std::string(narrow) + "\n";
    text = joined(cut, kept_notes);
    structured["text"] = text;
    return text;
}

std::string shown_text(std::string_view bytes) {
    return text::is_valid_utf8(bytes) ? std::string(bytes) : text::to_valid_utf8(bytes);
}

std::string shown_path(std::string_view bytes) { return text::quoted_path(bytes); }

std::string walk_caps_text(const os::WalkSummary& summary, const ListingStart& start, std::size_t max_depth,
                           bool depth_is_cap, std::string_view tool) {
    const auto named = [&start](const std::vector<std::string>& paths, std::uint64_t count) {
        std::string s;
        for (std::size_t i = 0; i < paths.size(); ++i)
            s +=
                (i ? ", " : "") + (paths[i].empty() ? shown_path(start.folder.display) : listing_path(start, paths[i]));
        if (count > paths.size()) s += ", and " + base::with_commas(count - paths.size()) + " more";
        return s;
    };
    std::string out;
    if (depth_is_cap && summary.too_deep)
        out += too_deep_line(summary.too_deep, max_depth, named(summary.too_deep_paths, summary.too_deep), tool);
    if (summary.crowded)
        out += crowded_line(summary.crowded, os::WalkOptions{}.max_entries_per_folder, summary.unread,
                            named(summary.crowded_paths, summary.crowded), tool);
    if (summary.links_not_followed)
        out += links_not_followed_line(summary.links_not_followed, os::max_followed_links, tool);
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

std::string compact_size(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, value < 10.0 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return buffer;
}

void LeftOut::add(const os::IgnoreRefusal& refusal) {
    if (refusal.kind == os::IgnoreRefusal::Kind::git_directory) {
        ++git_;
        return;
    }
    ++ignored_;
    if (!name_rules_) return;
    const auto key = std::make_tuple(refusal.file, refusal.line, refusal.rule);
    if (auto found = rules_.find(key); found != rules_.end()) {
        ++found->second;
    } else if (rules_.size() < max_rules) {
        rules_.emplace(key, 1);
    } else {
        ++unnamed_rules_;
    }
}

namespace {

std::string file_shown(const os::Workspace& workspace, const std::string& root, const std::string& relative) {
    return workspace.display_path(root + (root.back() == '/' ? "" : "/") + relative);
}

}  // namespace

std::string LeftOut::text(const os::Workspace& workspace, const std::string& root) const {
    if (empty()) return "";
    std::string out = "Left out: ";
    bool first = true;
    const auto part = [&](const std::string& s) {
        if (!first) out += "; ";
        out += s;
        first = false;
    };
    if (git_) part(base::count_of(git_, ".git folder", ".git folders"));
    if (ignored_) {
        std::string s = base::count_of(ignored_, "entry", "entries") + " the ignore rules cover";
        if (!name_rules_) {
            s += " (not named: --ignore-reads)";
        } else {
            s += " (";
            bool first_rule = true;
            for (const auto& [key, n] : rules_) {
                if (!first_rule) s += ", ";
                first_rule = false;
                s += "`" + shown_text(std::get<2>(key)) + "` in " +
                     shown_path(file_shown(workspace, root, std::get<0>(key))) + " line " +
                     std::to_string(std::get<1>(key)) + ": " + base::with_commas(n);
            }
            if (unnamed_rules_) s += ", other rules: " + base::with_commas(unnamed_rules_);
            s += ")";
        }
        part(s);
    }
    if (hidden_) part(base::count_of(hidden_, "hidden entry", "hidden entries") + " (include_hidden: true shows them)");
    return out + ".";
}

Json LeftOut::json(const os::Workspace& workspace, const std::string& root) const {
    Json out = {{"git_folders", git_}, {"ignored", ignored_}, {"hidden", hidden_}};
    if (name_rules_) {
        Json rules = Json::array();
        for (const auto& [key, n] : rules_)
            rules.push_back({{"rule", shown_text(std::get<2>(key))},
                             {"file", shown_path(file_shown(workspace, root, std::get<0>(key)))},
                             {"line", std::get<1>(key)},
                             {"count", n}});
        out["rules"] = std::move(rules);
    }
    return out;
}

}  // namespace tools
