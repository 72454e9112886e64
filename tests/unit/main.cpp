// The unit-test executable's entry point: doctest's own main, nothing else.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
