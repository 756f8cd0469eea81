// Linked into every test executable (dq_test in cmake/DqHelpers.cmake). When a test suite's
// SetUpTestSuite failed, GoogleTest reports each of its tests as "[  SKIPPED ]", and CTest (whose
// GoogleTest skip rule matches that text) counts them as skipped, so a stack that did not start
// could pass unseen in a green run. This listener ends the process with exit code 1 before the
// first such test is reported, after saying why; CTest then counts the test as failed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace {

class SuiteSetUpGuard : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo& info) override {
    const ::testing::TestSuite* suite = ::testing::UnitTest::GetInstance()->current_test_suite();
    if (suite == nullptr || !suite->ad_hoc_test_result().Failed()) return;
    std::fprintf(stdout,
                 "[  FAILED  ] %s.%s: the suite's SetUpTestSuite failed (see above); the run "
                 "stops here so that this counts as a failure, not a skip\n",
                 info.test_suite_name(), info.name());
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(1);
  }
};

// Registered before main() runs: gtest_main then initialises and runs the tests as usual.
const bool kRegistered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new SuiteSetUpGuard);
  return true;
}();

}  // namespace
