// The registry's words for the model (see registry_messages.hpp).
#include "tools/registry_messages.hpp"

#include "base/wording.hpp"

namespace tools {

namespace {

// An argument's name as the model sent it, cut to a length a message can carry.
std::string quoted_key(std::string_view key) { return "`" + base::cut_utf8(std::string(key), 64) + "`"; }

}  // namespace

std::string invalid_arguments_message(std::string_view tool, const std::vector<std::string>& findings,
                                      std::string_view arguments_summary) {
    std::string message = "Invalid arguments for " + std::string(tool) + ":";
    for (const auto& f : findings) message += "\n- " + f;
    message += "\n" + std::string(tool) + " takes: " + std::string(arguments_summary) + ".";
    return message;
}

std::string too_many_unknown_arguments(std::string_view tool, std::size_t count, std::size_t looked_at,
                                       const std::vector<std::string>& first) {
    std::string some;
    for (std::size_t i = 0; i < first.size() && i < 3; ++i) some += (i ? ", " : "") + quoted_key(first[i]);
    return std::to_string(count) + " arguments that " + std::string(tool) + " does not take (more than " +
           std::to_string(looked_at) + "), among them " + some + ": send only its own arguments";
}

std::string unsafe_unknown_argument(std::string_view key, std::string_view tool, std::string_view honoured) {
    return quoted_key(key) + " is not an argument of " + std::string(tool) +
           ", and its name speaks of a safety condition, so the call is refused rather than run without it "
           "(nothing was changed). " +
           std::string(tool) + " honours " + std::string(honoured) + ": send one of those, or the call without " +
           quoted_key(key);
}

std::string unknown_argument_also_given(std::string_view key, std::string_view tool, std::string_view meant) {
    return quoted_key(key) + " is not an argument of " + std::string(tool) + "; it looks like `" + std::string(meant) +
           "`, which is also given: send only `" + std::string(meant) + "`";
}

std::string unknown_argument_did_you_mean(std::string_view key, std::string_view tool, std::string_view meant) {
    return quoted_key(key) + " is not an argument of " + std::string(tool) + ": did you mean `" + std::string(meant) +
           "`?";
}

std::string ignored_arguments_note(const std::vector<std::string>& ignored) {
    std::string note;
    for (const auto& key : ignored)
        note += (note.empty() ? "Ignored arguments this tool does not take: " : ", ") + base::cut_utf8(key, 64);
    if (!note.empty()) note += ".";
    return note;
}

std::string stringified_arguments_note(std::string_view decoded) {
    return "Read " + std::string(decoded) +
           ", sent as a JSON string, as the JSON value it holds (send it as a JSON array or object, not a string).";
}

}  // namespace tools
