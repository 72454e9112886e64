// The unit-test executable's entry point: doctest's own runner. Standard output is unbuffered, so
// that a run which dies (under Wine, say) still shows the test it died in. A listener names each
// test case a doctest::skip decorator skipped, with its reason (its doctest::description), one line
// each ("[doctest] skipped: NAME: REASON (FILE:LINE)"), for scripts/test's list of skips.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <iostream>

namespace {

struct SkipLister : doctest::IReporter {
    explicit SkipLister(const doctest::ContextOptions& options) : options_(options) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    // Called for a test case a decorator skips and for one the filters (-tc, ...) leave out: only
    // the first kind is named.
    void test_case_skipped(const doctest::TestCaseData& tc) override {
        if (!tc.m_skip || options_.no_skip) return;
        const bool has_reason = tc.m_description != nullptr && tc.m_description[0] != '\0';
        std::cout << "[doctest] skipped: " << tc.m_name << ": " << (has_reason ? tc.m_description : "no reason given")
                  << " (" << tc.m_file.c_str() << ":" << tc.m_line << ")\n";
    }

private:
    const doctest::ContextOptions& options_;
};

}  // namespace

REGISTER_LISTENER("skip-lister", 1, SkipLister);

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    return doctest::Context(argc, argv).run();
}
