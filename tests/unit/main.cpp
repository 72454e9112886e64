// The unit-test executable's entry point: doctest's own runner. Standard output is unbuffered, so
// that a run which dies (under Wine, say) still shows the test it died in.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    return doctest::Context(argc, argv).run();
}
