#include "dq/common/settings.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace dq {
namespace {

TEST(SettingsTest, DefaultsApplyWhenUnset) {
  auto s = Settings::Load(kGateway, {});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->Int("DQ_GATEWAY_PORT"), 8080);
  EXPECT_EQ(s->Int("DQ_RATE_LIMIT_GENERAL"), 60);
  EXPECT_EQ(s->Int("DQ_RATE_LIMIT_UPLOAD"), 10);
  EXPECT_EQ(s->Int("DQ_MAX_RECORDS"), 500);
  EXPECT_EQ(s->String("DQ_REDIS_HOST"), "127.0.0.1");
}

TEST(SettingsTest, EnvironmentOverridesDefaults) {
  auto s = Settings::Load(kGateway, {{"DQ_GATEWAY_PORT", "9000"}, {"HOME", "/root"}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->Int("DQ_GATEWAY_PORT"), 9000);
}

TEST(SettingsTest, UnknownDqVariableIsRejectedByName) {
  auto s = Settings::Load(kGateway, {{"DQ_GATEWAY_PROT", "9000"}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "unknown setting DQ_GATEWAY_PROT (see docs/configuration.md)");
}

TEST(SettingsTest, OutOfRangeAndNonIntegerValuesAreRejected) {
  auto high = Settings::Load(kGateway, {{"DQ_GATEWAY_PORT", "70000"}});
  ASSERT_FALSE(high.ok());
  EXPECT_EQ(high.status().message(), "DQ_GATEWAY_PORT=70000 is not an integer in [0, 65535]");
  EXPECT_FALSE(Settings::Load(kGateway, {{"DQ_GATEWAY_THREADS", "eight"}}).ok());
  EXPECT_FALSE(Settings::Load(kGateway, {{"DQ_GATEWAY_THREADS", "8x"}}).ok());
}

TEST(SettingsTest, AnotherComponentsSettingIsAcceptedAndIgnored) {
  // docker-compose and ./dev may hand every process the same environment.
  auto s = Settings::Load(kValidator, {{"DQ_GATEWAY_PORT", "9000"}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->Int("DQ_VALIDATOR_PORT"), 50051);
}

TEST(SettingsTest, SecretsAreMaskedInDescribe) {
  auto s = Settings::Load(kGateway, {{"DQ_REDIS_PASSWORD", "hunter2"}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->Describe().find("hunter2"), std::string::npos);
  EXPECT_NE(s->Describe().find("DQ_REDIS_PASSWORD=***"), std::string::npos);
}

// docs/configuration.md documents exactly the settings in the table.
TEST(SettingsTest, ConfigurationDocListsEverySetting) {
  std::ifstream in(DQ_SOURCE_DIR "/docs/configuration.md");
  ASSERT_TRUE(in.good()) << "docs/configuration.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  std::set<std::string> documented;
  for (size_t pos = doc.find("| `DQ_"); pos != std::string::npos;
       pos = doc.find("| `DQ_", pos + 1)) {
    const size_t start = pos + 3;
    documented.insert(doc.substr(start, doc.find('`', start) - start));
  }
  std::set<std::string> table;
  for (const auto& spec : AllSettings()) {
    table.insert(std::string(spec.name));
    const std::string row = "| `" + std::string(spec.name) + "` | `" +
                            std::string(spec.default_value) + "` |";
    EXPECT_NE(doc.find(row), std::string::npos) << "missing or wrong default: " << row;
  }
  EXPECT_EQ(documented, table);
}

}  // namespace
}  // namespace dq
