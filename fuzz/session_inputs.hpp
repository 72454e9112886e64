// What the session fuzz target's driver (fuzz_session.cpp) and its structure-aware mutator
// (session_mutator.cpp) share: the names in the server's roots that have broken promises before, the
// input line the driver takes for itself, and the mutator's two moves: a valid message of either
// era, and one type-confusing change to one place of a message.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace session_fuzz {

// Names that have broken promises before: a newline that forged diff and listing lines, an ESC,
// a name of 255 bytes (the longest most file systems allow), a name a second root also has.
inline const std::string long_name = std::string(251, 'L') + ".txt";
inline const std::vector<std::string> odd_names = {"odd\nname.txt", "esc\x1b[31m.txt", long_name,
                                                   "tab\there \"q\" .txt"};

// A line of the input that the driver takes, not the server: from there on, another holder keeps
// the first root's folder lock (an flock on its lock file through a descriptor of the driver's), so
// writes there wait for it, and cancellations meet them waiting. It is let go at the end of input.
constexpr std::string_view hold_lock_line = "#hold-folder-lock";

// The second root (a file there is named by its absolute path), as the driver made it.
std::string second_root_path();

using Rng = std::minstd_rand;

// A number below n (0 when n is 0).
inline std::size_t pick(Rng& rng, std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); }

// One valid message of either era (or a client's answer to a request of the server's).
nlohmann::json template_message(Rng& rng);

// One type-confusing change to one place of a message: values of another JSON type, numbers out
// of range, deep nesting, huge strings, missing and repeated keys; the message as a line of text.
std::string mutate_message(nlohmann::json message, Rng& rng);

}  // namespace session_fuzz
