#include "phone.h"

#include <phonenumbers/phonenumberutil.h>

#include "phone_fast_path.h"
#include "text.h"

namespace dq::validator {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

PhoneVerdict CheckWithLibphonenumber(std::string_view number, std::string_view region) {
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
  return v;
}

const PhoneVerdict& PhoneChecker::Check(std::string_view number, std::string_view region) {
  switch (phone_fast_path::Check(number, region, &last_.e164)) {
    case phone_fast_path::Outcome::kValid:
      ++fast_;
      last_.valid = true;
      last_.has_extension = false;
      return last_;
    case phone_fast_path::Outcome::kInvalid:
      ++fast_;
      last_.valid = false;
      last_.has_extension = false;
      last_.e164.clear();
      return last_;
    case phone_fast_path::Outcome::kUnsure:
      break;
  }
  key_.assign(region);
  key_.push_back('|');
  key_.append(number);
  if (auto it = cache_.find(key_); it != cache_.end()) return it->second;
  ++slow_;
  if (cache_.size() >= max_entries_) cache_.clear();
  return cache_.emplace(key_, CheckWithLibphonenumber(number, region)).first->second;
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
