// Command splitting and `GLOB=COMMAND` parsing for post-write checks (the glob is text::Glob).
#include "checks/check_rules.hpp"

namespace checks {

namespace {

base::Unexpected<base::Failure> bad(std::string message) {
    return base::fail(base::Failure{std::move(message), base::ErrorReason::invalid_arguments});
}

}  // namespace

base::Result<std::vector<std::string>> split_command(std::string_view command) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else if (c == '\'') {
            const std::size_t end = command.find('\'', i + 1);
            if (end == std::string_view::npos) return bad("the command has an unterminated ' quote");
            word.append(command.substr(i + 1, end - i - 1));
            i = end;
            in_word = true;
        } else if (c == '"') {
            std::size_t j = i + 1;
            for (; j < command.size() && command[j] != '"'; ++j) {
                if (command[j] == '\\' && j + 1 < command.size() &&
                    std::string_view("\"\\$`").find(command[j + 1]) != std::string_view::npos)
                    ++j;
                word.push_back(command[j]);
            }
            if (j >= command.size()) return bad("the command has an unterminated \" quote");
            i = j;
            in_word = true;
        } else if (c == '\\') {
            if (i + 1 >= command.size()) return bad("the command ends with a lone backslash");
            word.push_back(command[++i]);
            in_word = true;
        } else {
            word.push_back(c);
            in_word = true;
        }
    }
    if (in_word) words.push_back(std::move(word));
    if (words.empty()) return bad("the command is empty");
    return words;
}

base::Result<CheckRule> CheckRule::parse(std::string_view spec) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string_view::npos)
        return bad(std::string(spec) + ": expected GLOB=COMMAND, e.g. --check '*.py=python3 -m py_compile {file}'");
    auto glob = text::Glob::parse(spec.substr(0, eq));
    if (!glob) return bad(std::string(spec) + ": " + glob.error().message);
    auto argv = split_command(spec.substr(eq + 1));
    if (!argv) return bad(std::string(spec) + ": " + argv.error().message);
    CheckRule rule;
    rule.glob = std::move(glob).value();
    rule.command = std::string(spec.substr(eq + 1));
    rule.argv = std::move(argv).value();
    return rule;
}

base::Result<CheckRule> CheckRule::parse_language_server(std::string_view spec) {
    if (spec.find('=') == std::string_view::npos)
        return bad(std::string(spec) + ": expected GLOB=COMMAND, e.g. --lsp '*.{c,cc,cpp,h,hpp}=clangd'");
    auto rule = parse(spec);
    if (!rule) return rule;
    for (const auto& arg : rule->argv)
        if (arg.find(file_placeholder) != std::string::npos)
            return bad(std::string(spec) +
                       ": a language server is started once for all the files it matches and is told "
                       "each file over LSP, so its command takes no {file}");
    return rule;
}

std::vector<std::string> CheckRule::argv_for(const std::string& path) const {
    std::vector<std::string> out;
    out.reserve(argv.size() + 1);
    bool placed = false;
    for (const auto& arg : argv) {
        std::string filled;
        std::size_t from = 0;
        for (std::size_t at; (at = arg.find(file_placeholder, from)) != std::string::npos;
             from = at + file_placeholder.size()) {
            filled.append(arg, from, at - from);
            filled += path;
            placed = true;
        }
        filled.append(arg, from);
        out.push_back(std::move(filled));
    }
    if (!placed) out.push_back(path);
    return out;
}

}  // namespace checks
