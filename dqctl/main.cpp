// dqctl: admin CLI. Talks to Redis directly, with the same settings as the services.
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli.h"
#include "dq/common/settings.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto settings = dq::Settings::FromEnvironment(dq::kDqctl);
  if (!settings.ok()) {
    std::cerr << nlohmann::json{{"error", "invalid_request"},
                                {"message", settings.status().message()}}
                     .dump()
              << "\n";
    return dq::cli::kExitUsage;
  }
  auto ro = dq::RedisOptionsFromSettings(*settings);
  if (!ro.ok()) {
    std::cerr << nlohmann::json{{"error", "invalid_request"}, {"message", ro.status().message()}}
                     .dump()
              << "\n";
    return dq::cli::kExitUsage;
  }
  dq::RedisClient redis(*ro);
  dq::RedisAccountStore store(redis, dq::SystemClock::Instance());
  dq::cli::CliOptions options;
  options.allow_http_webhooks = settings->Int("DQ_WEBHOOK_ALLOW_HTTP") == 1;
  options.in = &std::cin;
  options.env = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    return v == nullptr ? std::nullopt : std::optional<std::string>(v);
  };
  options.verify_user = [&redis](const std::string& email) {
    return dq::cli::VerifyUserInRedis(redis, email);
  };
  dq::webhook::RedisDeliveryLog deliveries(redis);
  return dq::cli::Run(args, store, &deliveries, options, std::cout, std::cerr);
}
