#include "dq/webhook/fair_gate.h"

#include <algorithm>

#include "dq/webhook/address_policy.h"

namespace dq::webhook {

Admission FairGate::Admit(std::string_view account, std::string_view host, int64_t now_ms) {
  std::lock_guard lock(mu_);
  auto h = hosts_.find(host);
  if (h != hosts_.end() && h->second.open_until > 0) {
    if (now_ms < h->second.open_until) return Admission::kHostOpen;
    if (h->second.probing) return Admission::kHostBusy;  // one probe at a time
  }
  auto a = accounts_.find(account);
  if (a != accounts_.end() && a->second >= limits_.per_account) return Admission::kAccountBusy;
  if (h != hosts_.end() && h->second.in_flight >= limits_.per_host) return Admission::kHostBusy;
  if (h == hosts_.end()) h = hosts_.emplace(std::string(host), Host{}).first;
  if (h->second.open_until > 0) h->second.probing = true;  // the half-open attempt
  ++h->second.in_flight;
  if (a == accounts_.end()) a = accounts_.emplace(std::string(account), 0).first;
  ++a->second;
  last_host_[std::string(account)] = std::string(host);
  return Admission::kGo;
}

FairGate::HostMap::iterator FairGate::EndAttemptLocked(std::string_view account,
                                                       std::string_view host) {
  if (auto a = accounts_.find(account); a != accounts_.end() && --a->second <= 0) {
    accounts_.erase(a);
    if (auto l = last_host_.find(account); l != last_host_.end()) last_host_.erase(l);
  }
  auto it = hosts_.find(host);
  if (it != hosts_.end() && it->second.in_flight > 0) --it->second.in_flight;
  return it;
}

void FairGate::Done(std::string_view account, std::string_view host, Reach reach,
                    int64_t now_ms) {
  std::lock_guard lock(mu_);
  auto it = EndAttemptLocked(account, host);
  if (it == hosts_.end()) return;
  Host& h = it->second;
  const bool probe = h.probing;
  h.probing = false;
  if (reach == Reach::kAnswered) {
    h.failures = 0;
    h.open_until = 0;
    h.cooldown = 0;
  } else if (probe) {
    h.cooldown = std::min(limits_.max_cooldown_ms, std::max<int64_t>(1, h.cooldown) * 2);
    h.open_until = now_ms + h.cooldown;
  } else if (++h.failures >= limits_.breaker_failures && h.open_until == 0) {
    h.cooldown = std::max<int64_t>(1, limits_.cooldown_ms);
    h.open_until = now_ms + h.cooldown;
  }
  if (h.in_flight == 0 && h.failures == 0 && h.open_until == 0) hosts_.erase(it);
}

void FairGate::Release(std::string_view account, std::string_view host) {
  std::lock_guard lock(mu_);
  auto it = EndAttemptLocked(account, host);
  if (it == hosts_.end()) return;
  Host& h = it->second;
  h.probing = false;  // the half-open probe was not made: the next attempt probes
  if (h.in_flight == 0 && h.failures == 0 && h.open_until == 0) hosts_.erase(it);
}

std::vector<std::string> FairGate::BusyAccounts() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [account, n] : accounts_) {
    bool busy = n >= limits_.per_account;
    if (!busy) {
      auto l = last_host_.find(account);
      if (l != last_host_.end()) {
        auto h = hosts_.find(l->second);
        busy = h != hosts_.end() && h->second.in_flight >= limits_.per_host;
      }
    }
    if (busy) out.push_back(account);
  }
  return out;
}

int64_t FairGate::OpenUntil(std::string_view host) const {
  std::lock_guard lock(mu_);
  auto h = hosts_.find(host);
  return h == hosts_.end() ? 0 : h->second.open_until;
}

int FairGate::InFlight(std::string_view account) const {
  std::lock_guard lock(mu_);
  auto a = accounts_.find(account);
  return a == accounts_.end() ? 0 : a->second;
}

std::string DestinationOf(std::string_view url) {
  auto parsed = ValidateWebhookUrl(url, UrlPolicy{true, true});
  if (!parsed.ok()) return "";
  return parsed->host + ":" + std::to_string(parsed->port);
}

}  // namespace dq::webhook
