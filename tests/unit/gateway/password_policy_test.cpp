// Which passwords sign-up refuses (console/password_policy.h), on the list the build embedded
// (Debian's john-data: gateway/data/README.md).
#include "console/password_policy.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

TEST(PasswordPolicyTest, TheEmbeddedListHoldsTheCommonOnesAndNotItsComments) {
  EXPECT_TRUE(IsCommonPassword("password"));
  EXPECT_TRUE(IsCommonPassword("QWERTY"));  // compared without case
  EXPECT_TRUE(IsCommonPassword("letmein"));
  EXPECT_FALSE(IsCommonPassword("#!comment:"));
  EXPECT_FALSE(IsCommonPassword(""));
  EXPECT_FALSE(IsCommonPassword("violet tractor harbour"));
}

TEST(PasswordPolicyTest, RefusesCommonPasswordsWithTheirEndingsAndTheAddress) {
  for (const char* p : {"password1234", "Password1234!", "qwertyuiop123", "iloveyou2024",
                        "letmein12345"}) {
    const Status s = CheckPasswordChoice(p, "shop@example.com");
    EXPECT_FALSE(s.ok()) << p;
    EXPECT_EQ(s.message(), "password: is one of the most used passwords; choose another") << p;
  }
  EXPECT_EQ(CheckPasswordChoice("Shop@Example.com", "shop@example.com").message(),
            "password: must not be your e-mail address");
  EXPECT_FALSE(CheckPasswordChoice("SHOP", "shop@example.com").ok());
  EXPECT_TRUE(CheckPasswordChoice("violet tractor harbour", "shop@example.com").ok());
  EXPECT_TRUE(CheckPasswordChoice("password-manager-made-9Xq2", "shop@example.com").ok());
}

}  // namespace
}  // namespace dq::gateway
