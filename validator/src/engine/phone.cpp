#include "phone.h"

#include <phonenumbers/phonenumberutil.h>

#include "text.h"

namespace dq::validator {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

const PhoneVerdict& PhoneChecker::Check(std::string_view number, std::string_view region) {
  key_.assign(region);
  key_.push_back('|');
  key_.append(number);
  if (auto it = cache_.find(key_); it != cache_.end()) return it->second;
  ++misses_;
  if (cache_.size() >= max_entries_) cache_.clear();
  PhoneVerdict v;
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  PhoneNumber parsed;
  if (util.Parse(std::string(number), std::string(region), &parsed) ==
          PhoneNumberUtil::NO_PARSING_ERROR &&
      util.IsValidNumber(parsed)) {
    v.valid = true;
    v.has_extension = parsed.has_extension() && !parsed.extension().empty();
    util.Format(parsed, PhoneNumberUtil::E164, &v.e164);
  }
  return cache_.emplace(key_, std::move(v)).first->second;
}

bool IsWrittenInternationally(std::string_view n) {
  if (n.size() < 2 || n[0] != '+') return false;
  for (char c : n.substr(1)) {
    if (!text::IsDigit(c) && c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
      return false;
    }
  }
  return true;
}

}  // namespace dq::validator
