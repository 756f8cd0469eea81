#include "dq/artifact/object_key.h"

#include <gtest/gtest.h>

namespace dq::artifact {
namespace {

TEST(ObjectKeyTest, AJobObjectIsAccountJobAttemptName) {
  auto key = ObjectKey({"acct_8f3a2c", "job_1d9e", "c4b2f0", IssuesPageName(1)});
  ASSERT_TRUE(key.ok()) << key.status().message();
  EXPECT_EQ(*key, "jobs/acct_8f3a2c/job_1d9e/c4b2f0/issues/000001.zst");
  EXPECT_EQ(*ObjectKey({"a", "j", std::string(kUploadAttempt), FilePieceName(12)}),
            "jobs/a/j/upload/file/000012.zst");
}

TEST(ObjectKeyTest, PrefixesNestAndEndWithASlash) {
  EXPECT_EQ(*AccountPrefix("acct_1"), "jobs/acct_1/");
  EXPECT_EQ(*JobPrefix("acct_1", "job_2"), "jobs/acct_1/job_2/");
  EXPECT_EQ(*AttemptPrefix("acct_1", "job_2", "c3"), "jobs/acct_1/job_2/c3/");
  const std::string key = *ObjectKey({"acct_1", "job_2", "c3", "summary.json"});
  EXPECT_EQ(key.rfind(*AttemptPrefix("acct_1", "job_2", "c3"), 0), 0u);
  // A job's prefix never covers a job whose id it starts.
  EXPECT_NE(key.rfind(*JobPrefix("acct_1", "job_"), 0), 0u);
}

TEST(ObjectKeyTest, ParseGivesBackTheParts) {
  const ObjectName name{"acct_1", "job_2", "c3", "issues/000042.zst"};
  auto parsed = ParseObjectKey(*ObjectKey(name));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, name);
  EXPECT_FALSE(ParseObjectKey("jobs/acct_1/job_2/c3").has_value());  // no name
  EXPECT_FALSE(ParseObjectKey("other/acct_1/job_2/c3/x").has_value());
  EXPECT_FALSE(ParseObjectKey("jobs/acct_1/../c3/x").has_value());
}

TEST(ObjectKeyTest, PartsThatCouldEscapeTheirPrefixAreRefused) {
  struct Case {
    const char* label;
    ObjectName name;
    const char* message;
  };
  const Case cases[] = {
      {"slash in the account", {"a/b", "j", "c", "n"},
       "account id \"a/b\" cannot be part of an object key (A-Z a-z 0-9 . _ - only, not starting "
       "with '.')"},
      {"dot-dot job", {"a", "..", "c", "n"},
       "job id \"..\" cannot be part of an object key (A-Z a-z 0-9 . _ - only, not starting with "
       "'.')"},
      {"empty attempt", {"a", "j", "", "n"},
       "attempt \"\" cannot be part of an object key (A-Z a-z 0-9 . _ - only, not starting with "
       "'.')"},
      {"empty name", {"a", "j", "c", ""}, "an object name cannot be empty"},
      {"name climbing out", {"a", "j", "c", "x/../../y"},
       "object key \"jobs/a/j/c/x/../../y\" is not valid: a segment starts with '.'"},
  };
  for (const auto& c : cases) {
    auto key = ObjectKey(c.name);
    ASSERT_FALSE(key.ok()) << c.label;
    EXPECT_EQ(key.status().code(), ErrorCode::kInvalidRequest) << c.label;
    EXPECT_EQ(key.status().message(), c.message) << c.label;
  }
}

TEST(ObjectKeyTest, KeyRules) {
  EXPECT_TRUE(ValidateKey("jobs/a-b_c.d/E9").ok());
  EXPECT_EQ(ValidateKey(std::string(513, 'a')).message(),
            "object key \"" + std::string(80, 'a') + "\" is not valid: longer than 512 bytes");
  EXPECT_TRUE(ValidateKey(std::string(512, 'a')).ok());
  EXPECT_FALSE(ValidateKey("jobs/\xc3\xa9").ok());  // no escaping is ever needed
  EXPECT_TRUE(ValidatePrefix("").ok());
  EXPECT_TRUE(ValidatePrefix("jobs/").ok());
  EXPECT_TRUE(ValidatePrefix("jobs/a").ok());
  EXPECT_FALSE(ValidatePrefix("/jobs").ok());
}

TEST(ObjectKeyTest, PageNamesSortInPageOrder) {
  EXPECT_EQ(IssuesPageName(7), "issues/000007.zst");
  EXPECT_LT(IssuesPageName(99), IssuesPageName(100));
  EXPECT_LT(IssuesPageName(999'998), IssuesPageName(999'999));
  EXPECT_EQ(FilePieceName(0), "file/000000.zst");
}

}  // namespace
}  // namespace dq::artifact
