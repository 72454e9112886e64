// Unit tests of reserve_bytes: large buffers are reserved as asked.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "text/bytes/byte_buffer.hpp"

TEST_CASE("reserve_bytes gives an empty string the room asked for, large or small") {
    for (std::size_t n : {std::size_t{0}, std::size_t{100}, std::size_t{20} << 20}) {
        std::string s;
        text::reserve_bytes(s, n);
        CHECK(s.empty());
        CHECK(s.capacity() >= n);
        s.assign(n, 'q');
        CHECK(static_cast<std::size_t>(std::count(s.begin(), s.end(), 'q')) == n);
    }
}
