#include "cli.h"

#include <map>
#include <nlohmann/json.hpp>

namespace dq::cli {
namespace {

using nlohmann::json;

struct Parsed {
  std::string noun;
  std::string verb;
  std::map<std::string, std::string> flags;
};

int Fail(std::ostream& err, int code, std::string_view error, const std::string& message) {
  err << json{{"error", error}, {"message", message}}.dump() << "\n";
  return code;
}

int FailStatus(std::ostream& err, const Status& s) {
  return Fail(err, 1, ErrorCodeName(s.code()), s.message());
}

bool ParseArgs(const std::vector<std::string>& args, Parsed* p, std::string* why) {
  if (args.size() < 2) {
    *why = "expected a command such as 'account create'";
    return false;
  }
  p->noun = args[0];
  p->verb = args[1];
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a.size() < 3) {
      *why = "unexpected argument '" + a + "'";
      return false;
    }
    std::string name = a.substr(2);
    std::string value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      *why = "--" + name + " needs a value";
      return false;
    }
    p->flags[name] = value;
  }
  return true;
}

bool Need(const Parsed& p, const std::string& flag, std::string* value, std::string* why) {
  auto it = p.flags.find(flag);
  if (it == p.flags.end() || it->second.empty()) {
    *why = p.noun + " " + p.verb + " needs --" + flag;
    return false;
  }
  *value = it->second;
  return true;
}

json AccountJson(const Account& a) {
  json j = {{"account_id", a.id}, {"name", a.name}, {"plan", std::string(PlanName(a.plan))},
            {"created_at", a.created_at}};
  j["quota_override"] = a.quota_override ? json(*a.quota_override) : json(nullptr);
  return j;
}

}  // namespace

std::string Usage() {
  return "usage: dqctl <command> [--flag value ...]\n"
         "  account create --plan free|pro|business|agency [--name NAME]\n"
         "  account show --account ID\n"
         "  account list\n"
         "  account set-plan --account ID --plan PLAN\n"
         "  account set-quota --account ID --records N   (-1 clears the override)\n"
         "  key create --account ID\n"
         "  key list --account ID\n"
         "  key revoke --account ID --key KEY_ID\n"
         "  webhook set --account ID --url URL [--secret SECRET]\n"
         "  webhook show --account ID\n"
         "  webhook deliveries --account ID [--limit N]\n"
         "  webhook redeliver --account ID --delivery DELIVERY_ID\n";
}

int Run(const std::vector<std::string>& args, AccountStore& store,
        notifier::RedisDeliveryLog* deliveries, const CliOptions& options, std::ostream& out,
        std::ostream& err) {
  Parsed p;
  std::string why;
  if (!ParseArgs(args, &p, &why)) return Fail(err, 2, "usage", why + "\n" + Usage());
  const std::string cmd = p.noun + " " + p.verb;
  std::string account_id;

  if (cmd == "account create") {
    std::string plan_name;
    if (!Need(p, "plan", &plan_name, &why)) return Fail(err, 2, "usage", why);
    auto plan = ParsePlan(plan_name);
    if (!plan) return Fail(err, 2, "usage", "unknown plan '" + plan_name + "'");
    auto account = store.CreateAccount(*plan, p.flags.count("name") ? p.flags["name"] : "");
    if (!account.ok()) return FailStatus(err, account.status());
    out << AccountJson(*account).dump() << "\n";
    return 0;
  }
  if (cmd == "account list") {
    auto ids = store.ListAccountIds();
    if (!ids.ok()) return FailStatus(err, ids.status());
    json list = json::array();
    for (const auto& id : *ids) {
      auto a = store.GetAccount(id);
      if (a.ok()) list.push_back(AccountJson(*a));
    }
    out << json{{"accounts", list}}.dump() << "\n";
    return 0;
  }
  if (p.noun != "account" && p.noun != "key" && p.noun != "webhook") {
    return Fail(err, 2, "usage", "unknown command '" + cmd + "'\n" + Usage());
  }
  if (!Need(p, "account", &account_id, &why)) return Fail(err, 2, "usage", why);

  if (cmd == "account show") {
    auto a = store.GetAccount(account_id);
    if (!a.ok()) return FailStatus(err, a.status());
    out << AccountJson(*a).dump() << "\n";
    return 0;
  }
  if (cmd == "account set-plan") {
    std::string plan_name;
    if (!Need(p, "plan", &plan_name, &why)) return Fail(err, 2, "usage", why);
    auto plan = ParsePlan(plan_name);
    if (!plan) return Fail(err, 2, "usage", "unknown plan '" + plan_name + "'");
    if (Status s = store.SetPlan(account_id, *plan); !s.ok()) return FailStatus(err, s);
    out << json{{"account_id", account_id}, {"plan", plan_name}}.dump() << "\n";
    return 0;
  }
  if (cmd == "account set-quota") {
    std::string text;
    if (!Need(p, "records", &text, &why)) return Fail(err, 2, "usage", why);
    int64_t records = 0;
    try {
      size_t used = 0;
      records = std::stoll(text, &used);
      if (used != text.size() || records < -1) throw std::invalid_argument(text);
    } catch (const std::exception&) {
      return Fail(err, 2, "usage", "--records must be a non-negative integer, or -1 to clear");
    }
    if (Status s = store.SetQuota(account_id, records); !s.ok()) return FailStatus(err, s);
    out << json{{"account_id", account_id},
                {"quota_override", records < 0 ? json(nullptr) : json(records)}}
               .dump()
        << "\n";
    return 0;
  }
  if (cmd == "key create") {
    auto key = store.CreateKey(account_id);
    if (!key.ok()) return FailStatus(err, key.status());
    out << json{{"account_id", account_id}, {"key_id", key->key_id}, {"api_key", key->api_key}}
               .dump()
        << "\n";
    return 0;
  }
  if (cmd == "key list") {
    auto keys = store.ListKeys(account_id);
    if (!keys.ok()) return FailStatus(err, keys.status());
    json list = json::array();
    for (const auto& k : *keys) {
      list.push_back({{"key_id", k.key_id}, {"hint", k.hint}, {"created_at", k.created_at},
                      {"revoked_at", k.revoked_at.empty() ? json(nullptr) : json(k.revoked_at)}});
    }
    out << json{{"account_id", account_id}, {"keys", list}}.dump() << "\n";
    return 0;
  }
  if (cmd == "key revoke") {
    std::string key_id;
    if (!Need(p, "key", &key_id, &why)) return Fail(err, 2, "usage", why);
    if (Status s = store.RevokeKey(account_id, key_id); !s.ok()) return FailStatus(err, s);
    out << json{{"account_id", account_id}, {"key_id", key_id}, {"revoked", true}}.dump() << "\n";
    return 0;
  }
  if (cmd == "webhook set") {
    std::string url;
    if (!Need(p, "url", &url, &why)) return Fail(err, 2, "usage", why);
    const bool https = url.rfind("https://", 0) == 0;
    const bool http = url.rfind("http://", 0) == 0;
    if (!https && !(http && options.allow_http_webhooks)) {
      return Fail(err, 2, "usage",
                  options.allow_http_webhooks
                      ? "--url must start with https:// or http://"
                      : "--url must start with https:// (http is allowed only when the "
                        "operator sets DQ_WEBHOOK_ALLOW_HTTP=1)");
    }
    Webhook hook{url, p.flags.count("secret") ? p.flags["secret"] : ""};
    if (Status s = store.SetWebhook(account_id, hook); !s.ok()) return FailStatus(err, s);
    out << json{{"account_id", account_id}, {"url", url}, {"signed", !hook.secret.empty()}}.dump()
        << "\n";
    return 0;
  }
  if (cmd == "webhook show") {
    auto hook = store.GetWebhook(account_id);
    if (!hook.ok()) return FailStatus(err, hook.status());
    json j = {{"account_id", account_id}};
    j["url"] = hook->has_value() ? json((*hook)->url) : json(nullptr);
    j["signed"] = hook->has_value() && !(*hook)->secret.empty();
    out << j.dump() << "\n";
    return 0;
  }
  if ((cmd == "webhook deliveries" || cmd == "webhook redeliver") && deliveries == nullptr) {
    return Fail(err, 1, "internal_error", "the delivery log is not available");
  }
  if (cmd == "webhook deliveries") {
    int limit = 100;
    if (auto it = p.flags.find("limit"); it != p.flags.end()) {
      try {
        limit = std::stoi(it->second);
      } catch (const std::exception&) {
        limit = 0;
      }
      if (limit < 1 || limit > 100) return Fail(err, 2, "usage", "--limit must be 1..100");
    }
    if (Status s = store.GetAccount(account_id).status(); !s.ok()) return FailStatus(err, s);
    auto attempts = deliveries->Deliveries(account_id, limit);
    if (!attempts.ok()) return FailStatus(err, attempts.status());
    auto dead = deliveries->DeadLetters(account_id);
    if (!dead.ok()) return FailStatus(err, dead.status());
    json list = json::array();
    for (const auto& a : *attempts) {
      list.push_back({{"time", a.time},
                      {"delivery_id", a.delivery_id},
                      {"url", a.url},
                      {"http_status", a.http_status == 0 ? json(nullptr) : json(a.http_status)},
                      {"latency_ms", a.latency_ms},
                      {"error", a.error.empty() ? json(nullptr) : json(a.error)},
                      {"outcome", a.outcome},
                      {"attempt", a.attempt},
                      {"event", a.event}});
    }
    json dead_list = json::array();
    for (const auto& d : *dead) {
      dead_list.push_back({{"time", d.time},
                           {"delivery_id", d.event.delivery_id},
                           {"url", d.url},
                           {"attempts", d.event.attempts},
                           {"last_error", d.last_error}});
    }
    out << json{{"account_id", account_id}, {"deliveries", list}, {"dead_letters", dead_list}}
               .dump()
        << "\n";
    return 0;
  }
  if (cmd == "webhook redeliver") {
    std::string delivery_id;
    if (!Need(p, "delivery", &delivery_id, &why)) return Fail(err, 2, "usage", why);
    const int64_t now = UnixMillis(SystemClock::Instance().Now());
    if (Status s = deliveries->Redeliver(account_id, delivery_id, now); !s.ok()) {
      return FailStatus(err, s);
    }
    out << json{{"account_id", account_id}, {"delivery_id", delivery_id}, {"redelivered", true}}
               .dump()
        << "\n";
    return 0;
  }
  return Fail(err, 2, "usage", "unknown command '" + cmd + "'\n" + Usage());
}

}  // namespace dq::cli
