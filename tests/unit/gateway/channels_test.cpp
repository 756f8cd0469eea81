// Channel readiness at the gateway (issue 32): `platform` as one template, a list or `all` on
// both doors, and the `channels` of the inline answer, of each issue and of a job's detail,
// written from the validator's answer (docs/api.md, "Channel readiness").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "jobs/job.h"
#include "dq/report/job_output.h"
#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

TEST(ChannelsTest, PlatformTakesAListOrAll) {
  for (const char* platform : {"search_merchant", "search_merchant,social_catalog",
                               " social_catalog , marketplace2 ", "all"}) {
    std::string body = R"({"records":[],"mapping":{},"platform":")";
    body.append(platform).append("\"}");
    auto r = ParseValidateRequest(body, 500);
    ASSERT_TRUE(r.ok()) << platform << ": " << r.status().message();
    EXPECT_EQ(r->platform, platform);
  }
}

TEST(ChannelsTest, AnUnknownPlatformInAListIsNamed) {
  auto r =
      ParseValidateRequest(R"({"records":[],"mapping":{},"platform":"search_merchant,ebay"})", 500);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidRequest);
  ASSERT_EQ(r.status().details().size(), 1u);
  EXPECT_EQ(r.status().details()[0].field, "platform");
  EXPECT_EQ(r.status().details()[0].message,
            "unknown platform 'ebay'; see docs/api.md for the eight template names");
  EXPECT_EQ(CheckPlatform("all,marketplace2").details()[0].message,
            "'all' cannot be combined with other platforms; see docs/api.md for the eight "
            "template names");
}

validator::v1::ValidateResponse Answer() {
  validator::v1::ValidateResponse result;
  auto* st = result.mutable_stats();
  st->set_rows(2);
  st->set_score(50);
  for (const char* name : {"social_catalog", "search_merchant"}) {
    auto* ch = st->add_channels();
    ch->set_platform(name);
    ch->set_ready(1);
    ch->set_blocked(1);
    ch->set_score(50);
    auto* b = ch->add_top_blockers();
    b->set_code("PLATFORM_MISSING_FIELD");
    b->set_rows(1);
  }
  auto* issue = result.add_issues();
  issue->set_row(2);
  issue->set_severity(validator::v1::SEVERITY_ERROR);
  issue->set_field("link");
  issue->set_code("PLATFORM_MISSING_FIELD");
  issue->set_message("search_merchant and social_catalog require link");
  issue->add_channels("search_merchant");
  issue->add_channels("social_catalog");
  return result;
}

TEST(ChannelsTest, TheInlineAnswerCarriesChannelsWithAPlatform) {
  auto cmd = ParseValidateRequest(R"({"records":[{"id":"A"},{"id":"B"}],"mapping":{"sku":"id"},)"
                                  R"("platform":"social_catalog,search_merchant"})",
                                  500);
  ASSERT_TRUE(cmd.ok());
  const std::string text = WriteValidateResponse(*cmd, Answer());
  auto out = nlohmann::json::parse(text);
  EXPECT_EQ(
      text.substr(0, text.find(",\"cleaned\"")),
      R"({"channels":{"social_catalog":{"blocked":1,"ready":1,"score":50,"top_blockers":)"
      R"([{"code":"PLATFORM_MISSING_FIELD","rows":1}]},"search_merchant":{"blocked":1,)"
      R"("ready":1,"score":50,"top_blockers":[{"code":"PLATFORM_MISSING_FIELD","rows":1}]}})");
  // The order the caller listed the templates in is the order of the object's members.
  EXPECT_LT(text.find("social_catalog\":{"), text.find("search_merchant\":{"));
  EXPECT_EQ(out["issues"][0]["channels"],
            nlohmann::json::array({"search_merchant", "social_catalog"}));
  EXPECT_EQ(out["stats"]["score"], 50);
}

// The gateway asks for each issue's channels as one integer (BatchSpec.channel_bits), and writes
// the answer with the same bytes from that as from the names a validator without the field sends.
TEST(ChannelsTest, ChannelBitsGiveTheSameAnswerAsNames) {
  auto cmd = ParseValidateRequest(R"({"records":[{"id":"A"},{"id":"B"}],"mapping":{"sku":"id"},)"
                                  R"("platform":"social_catalog,search_merchant"})",
                                  500);
  ASSERT_TRUE(cmd.ok());
  auto req = BuildValidatorRequest(*cmd);
  ASSERT_TRUE(req.ok());
  EXPECT_TRUE(req->spec().channel_bits());
  validator::v1::ValidateResponse bits = Answer();
  bits.mutable_issues(0)->clear_channels();
  bits.mutable_issues(0)->set_channel_bits((1u << 3) | (1u << 4));  // kPlatforms[3] and [4]
  EXPECT_EQ(WriteValidateResponse(*cmd, bits), WriteValidateResponse(*cmd, Answer()));
}

TEST(ChannelsTest, WithoutAPlatformTheAnswerIsAsBefore) {
  auto cmd = ParseValidateRequest(R"({"records":[{"id":"A"}],"mapping":{"sku":"id"}})", 500);
  ASSERT_TRUE(cmd.ok());
  auto out = nlohmann::json::parse(WriteValidateResponse(*cmd, Answer()));
  EXPECT_FALSE(out.contains("channels"));
  EXPECT_FALSE(out["issues"][0].contains("channels"));
}

TEST(ChannelsTest, AJobKeepsItsChannelsAndItsIssuesTheirs) {
  const auto answer = Answer();
  Job job;
  job.id = "j1";
  job.status = JobStatus::kDone;
  job.platform = "social_catalog,search_merchant";
  job.channels = ChannelsJson(answer.stats());
  // Through the store's hash and back, as the detail reads it.
  std::vector<std::pair<std::string, std::string>> hash;
  const auto args = JobToHashArgs(job);
  for (size_t i = 0; i + 1 < args.size(); i += 2) hash.emplace_back(args[i], args[i + 1]);
  const nlohmann::json detail = JobDetailJson(JobFromHash(hash));
  EXPECT_EQ(detail["channels"]["search_merchant"]["blocked"], 1);
  EXPECT_EQ(detail["channels"]["social_catalog"]["top_blockers"][0]["code"],
            "PLATFORM_MISSING_FIELD");
  EXPECT_EQ(nlohmann::json::parse(report::IssueJson(1, answer.issues(0), {}, true))["channels"],
            nlohmann::json::array({"search_merchant", "social_catalog"}));
  EXPECT_FALSE(nlohmann::json::parse(report::IssueJson(1, answer.issues(0)))["channels"].is_array());

  Job plain;
  plain.id = "j2";
  EXPECT_FALSE(JobDetailJson(plain).contains("channels"));
}

}  // namespace
}  // namespace dq::gateway
