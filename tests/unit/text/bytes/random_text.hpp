// Random texts over a small alphabet, for the byte-level tests that compare against a reference.
#pragma once

#include <random>
#include <string>

namespace test_text {

inline std::string random_text(std::mt19937& rng, std::size_t n, const char* alphabet) {
    const std::size_t k = std::char_traits<char>::length(alphabet);
    std::string s(n, ' ');
    for (char& c : s) c = alphabet[rng() % k];
    return s;
}

}  // namespace test_text
