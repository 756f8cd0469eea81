#include "phone_samples.h"

#include <phonenumbers/phonenumberutil.h>

#include <set>

#include "phone.h"
#include "phone_fast_path.h"

namespace dq::validator::tools {
namespace {

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

std::string NsnOf(const PhoneNumberUtil& util, const PhoneNumber& n) {
  std::string s;
  util.GetNationalSignificantNumber(n, &s);
  return s;
}

PhoneNumber Make(int cc, const std::string& nsn) {
  PhoneNumber n;
  n.set_country_code(cc);
  n.set_national_number(std::stoull(nsn));
  if (nsn.size() > 1 && nsn[0] == '0') {
    n.set_italian_leading_zero(true);
    size_t zeros = 1;
    while (zeros < nsn.size() - 1 && nsn[zeros] == '0') ++zeros;
    if (zeros != 1) n.set_number_of_leading_zeros(static_cast<int32_t>(zeros));
  }
  return n;
}

}  // namespace

PhoneSampler::PhoneSampler(uint64_t seed) : rng_(seed) {
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  const PhoneNumberUtil::PhoneNumberType kTypes[] = {
      PhoneNumberUtil::FIXED_LINE,      PhoneNumberUtil::MOBILE,      PhoneNumberUtil::TOLL_FREE,
      PhoneNumberUtil::PREMIUM_RATE,    PhoneNumberUtil::SHARED_COST, PhoneNumberUtil::VOIP,
      PhoneNumberUtil::PERSONAL_NUMBER, PhoneNumberUtil::PAGER,       PhoneNumberUtil::UAN,
      PhoneNumberUtil::VOICEMAIL};
  std::set<std::string> regions;
  util.GetSupportedRegions(&regions);
  for (const std::string& r : regions) {
    Target t{r, util.GetCountryCodeForRegion(r), {}};
    for (auto type : kTypes) {
      PhoneNumber ex;
      if (util.GetExampleNumberForType(r, type, &ex)) t.examples.push_back(NsnOf(util, ex));
    }
    if (t.examples.empty()) t.examples.push_back("1234567");
    targets_.push_back(std::move(t));
    regions_.push_back(r);
  }
  std::set<int> non_geo;
  util.GetSupportedGlobalNetworkCallingCodes(&non_geo);
  for (int cc : non_geo) {
    Target t{"001", cc, {}};
    PhoneNumber ex;
    if (util.GetExampleNumberForNonGeoEntity(cc, &ex)) t.examples.push_back(NsnOf(util, ex));
    if (t.examples.empty()) t.examples.push_back("12345678");
    targets_.push_back(std::move(t));
  }
}

size_t PhoneSampler::region_count() const { return regions_.size(); }
size_t PhoneSampler::non_geo_count() const { return targets_.size() - regions_.size(); }

std::string PhoneSampler::Digits(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>('0' + rng_() % 10));
  return s;
}

// Separators between digits the way people type them; sometimes the first group in parens.
std::string PhoneSampler::Punctuate(const std::string& digits) {
  static const char* const kSeps[] = {" ", "-", ".", " - ", "  ", ""};
  std::string out;
  const size_t paren = rng_() % 4 == 0 ? 2 + rng_() % 3 : 0;
  if (paren) out.push_back('(');
  for (size_t i = 0; i < digits.size(); ++i) {
    out.push_back(digits[i]);
    if (paren && i + 1 == paren) {
      out += rng_() % 2 ? ") " : ")";
    } else if (i + 1 < digits.size() && rng_() % 3 == 0) {
      out += kSeps[rng_() % 6];
    }
  }
  return out;
}

// A national significant number: an example number of the target, often with digits changed,
// sometimes a wrong length or all random.
std::string PhoneSampler::Nsn(const Target& t) {
  std::string n = t.examples[rng_() % t.examples.size()];
  const unsigned r = rng_() % 100;
  if (r < 40) return n;
  if (r < 75) {  // new last digits: mostly valid numbers no example has
    const size_t k = 1 + rng_() % std::min<size_t>(6, n.size());
    return n.substr(0, n.size() - k) + Digits(k);
  }
  if (r < 85) return rng_() % 2 ? n + Digits(1) : n.substr(0, n.size() - 1);
  if (r < 95) return Digits(2 + rng_() % 14);
  n[0] = static_cast<char>('0' + rng_() % 10);
  return n;
}

PhoneSample PhoneSampler::Next() {
  const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
  const Target& t = targets_[next_++ % targets_.size()];
  std::string nsn = Nsn(t);
  if (nsn.empty()) nsn.push_back('0');
  const std::string cc = std::to_string(t.country_code);
  PhoneSample s;
  // The default region: mostly the target's own.
  const unsigned rr = rng_() % 100;
  if (t.region != "001" && rr < 75) {
    s.region = t.region;
  } else if (rr < 90) {
    s.region = regions_[rng_() % regions_.size()];
  } else if (rr < 98) {
    s.region = "ZZ";
  } else {
    s.region = rr == 98 ? "" : "us";
  }
  const PhoneNumber pn = Make(t.country_code, nsn);
  std::string text;
  switch (rng_() % 16) {
    case 0:
    case 1:
      text = "+" + cc + nsn;
      break;
    case 2:
    case 3:
      util.Format(pn, PhoneNumberUtil::INTERNATIONAL, &text);
      break;
    case 4:
    case 5:
      util.Format(pn, PhoneNumberUtil::NATIONAL, &text);
      break;
    case 6:
      text = "00 " + cc + " " + Punctuate(nsn);
      break;
    case 7:
      text = "011 " + cc + " " + Punctuate(nsn);
      break;
    case 8:
      text = cc + Punctuate(nsn);  // calling code without '+'
      break;
    case 9:
      text = Punctuate("0" + nsn);  // a guessed trunk prefix
      break;
    case 10:
      text = Punctuate(nsn);
      break;
    case 11:
      text = "+" + cc + " " + Punctuate(nsn);
      break;
    case 12:
      text = "(+" + cc + ") " + Punctuate(nsn);
      break;
    case 13:
      text = "+" + Punctuate(Digits(3 + rng_() % 14));  // any calling code, any digits
      break;
    case 14: {  // shapes the fast path leaves to libphonenumber
      static const char* const kTails[] = {" ext. 12", " x 345", ";ext=7", " #", "\t", "/x2"};
      util.Format(pn, PhoneNumberUtil::INTERNATIONAL, &text);
      text += kTails[rng_() % 6];
      break;
    }
    default: {
      static const char* const kOdd[] = {"tel:+", "++", "+0", "\xC2\xA0", "TEL ", "1-800-"};
      text = kOdd[rng_() % 6];
      text += rng_() % 2 ? cc + nsn : std::string("FLOWERS");
      break;
    }
  }
  s.number = std::move(text);
  return s;
}

AgreementResult CompareWithLibphonenumber(uint64_t count, uint64_t seed) {
  PhoneSampler sampler(seed);
  AgreementResult r;
  std::string e164;
  for (uint64_t i = 0; i < count; ++i) {
    const PhoneSample s = sampler.Next();
    const PhoneVerdict ref = CheckWithLibphonenumber(s.number, s.region);
    ++r.samples;
    if (ref.valid) ++r.ref_valid;
    const phone_fast_path::Outcome o = phone_fast_path::Check(s.number, s.region, &e164);
    if (o == phone_fast_path::Outcome::kUnsure) continue;
    ++r.fast;
    const bool valid = o == phone_fast_path::Outcome::kValid;
    if (valid) ++r.fast_valid;
    if (valid != ref.valid || (valid && e164 != ref.e164)) {
      ++r.disagreements;
      if (r.examples.size() < 20) {
        r.examples.push_back("\"" + s.number + "\" region \"" + s.region + "\": fast " +
                             (valid ? "valid " + e164 : "invalid") + ", libphonenumber " +
                             (ref.valid ? "valid " + ref.e164 : "invalid"));
      }
    }
  }
  return r;
}

}  // namespace dq::validator::tools
