#include "phone_fast_path.h"

#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>
#include <re2/re2.h>

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

// libphonenumber exports its compiled-in metadata (the PhoneMetadataCollection it parses at
// start-up) but installs no header for it.
namespace i18n::phonenumbers {
int metadata_size();
const void* metadata_get();
}  // namespace i18n::phonenumbers

namespace dq::validator::phone_fast_path {
namespace {

using i18n::phonenumbers::PhoneMetadata;
using i18n::phonenumbers::PhoneMetadataCollection;
using i18n::phonenumbers::PhoneNumberDesc;
using i18n::phonenumbers::PhoneNumberUtil;

constexpr size_t kMinLengthForNsn = 2;   // PhoneNumberUtil::kMinLengthForNsn
constexpr size_t kMaxLengthForNsn = 17;  // PhoneNumberUtil::kMaxLengthForNsn
constexpr size_t kMaxLengthCountryCode = 3;
// More digits than any NSN + calling code + prefix: left to libphonenumber.
constexpr size_t kMaxDigits = 24;
// Capture groups StripNationalPrefix has room for (8.12.57's patterns have at most 2).
constexpr int kMaxPrefixGroups = 9;

re2::StringPiece Piece(std::string_view s) { return re2::StringPiece(s.data(), s.size()); }

// A set of lengths as a bit mask (lengths of interest are < 32; -1 never matches a length).
struct LengthSet {
  uint32_t bits = 0;
  bool Has(size_t n) const { return n < 32 && (bits >> n & 1u); }
};
LengthSet MakeLengths(const google::protobuf::RepeatedField<int32_t>& v) {
  LengthSet s;
  for (int32_t n : v) {
    if (n >= 0 && n < 32) s.bits |= 1u << n;
  }
  return s;
}

std::unique_ptr<RE2> CompileRe(const std::string& pattern, bool* ok) {
  RE2::Options o;
  o.set_log_errors(false);
  auto re = std::make_unique<RE2>(pattern, o);
  if (!re->ok()) *ok = false;
  return re;
}

// One PhoneNumberDesc: IsNumberMatchingDesc and IsMatch (pattern only).
struct Desc {
  bool has_lengths = false;  // possible_length_size() > 0
  LengthSet lengths;
  std::unique_ptr<RE2> pattern;  // null when the pattern is empty: IsMatch is then false

  void Init(const PhoneNumberDesc& d, bool* ok) {
    has_lengths = d.possible_length_size() > 0;
    lengths = MakeLengths(d.possible_length());
    if (!d.national_number_pattern().empty()) pattern = CompileRe(d.national_number_pattern(), ok);
  }
  bool PatternMatches(std::string_view n) const {
    return pattern && RE2::FullMatch(Piece(n), *pattern);
  }
  bool Matches(std::string_view n) const {  // IsNumberMatchingDesc
    if (has_lengths && !lengths.Has(n.size())) return false;
    return PatternMatches(n);
  }
};

enum class LengthResult { kPossible, kLocalOnly, kTooShort, kTooLong, kInvalidLength };

// One PhoneMetadata (a region, or a non-geographic calling code "001"). The expressions are
// compiled on first use.
struct Meta {
  const PhoneMetadata* proto = nullptr;
  int country_code = 0;
  std::string country_code_str;

  std::once_flag once;
  bool usable = false;  // every expression compiled and every rule understood

  Desc general;
  LengthSet general_local;
  int general_first_length = -1, general_last_length = -1;
  std::array<Desc, 8> other_types;  // premium, toll-free, shared cost, VoIP, personal, pager,
                                    // UAN, voicemail: GetNumberTypeHelper's order
  Desc fixed_line, mobile;
  bool same_mobile_and_fixed_line = false;
  std::unique_ptr<RE2> international_prefix;
  std::unique_ptr<RE2> national_prefix;  // null when national_prefix_for_parsing is empty
  int national_prefix_groups = 0;
  std::string transform_rule;
  std::unique_ptr<RE2> leading_digits;  // null when the metadata has none

  void Compile() {
    const PhoneMetadata& m = *proto;
    bool ok = true;
    general.Init(m.general_desc(), &ok);
    general_local = MakeLengths(m.general_desc().possible_length_local_only());
    if (m.general_desc().possible_length_size() == 0) ok = false;  // libphonenumber assumes some
    if (ok) {
      general_first_length = m.general_desc().possible_length(0);
      general_last_length =
          m.general_desc().possible_length(m.general_desc().possible_length_size() - 1);
    }
    const PhoneNumberDesc* others[] = {&m.premium_rate(), &m.toll_free(),       &m.shared_cost(),
                                       &m.voip(),         &m.personal_number(), &m.pager(),
                                       &m.uan(),          &m.voicemail()};
    for (size_t i = 0; i < other_types.size(); ++i) other_types[i].Init(*others[i], &ok);
    fixed_line.Init(m.fixed_line(), &ok);
    mobile.Init(m.mobile(), &ok);
    same_mobile_and_fixed_line = m.same_mobile_and_fixed_line_pattern();
    // An empty international prefix compiles to the empty pattern, as it does for ICU.
    international_prefix = CompileRe(m.international_prefix(), &ok);
    if (!m.national_prefix_for_parsing().empty()) {
      national_prefix = CompileRe(m.national_prefix_for_parsing(), &ok);
      national_prefix_groups = ok ? national_prefix->NumberOfCapturingGroups() : 0;
      if (national_prefix_groups > kMaxPrefixGroups) ok = false;  // see StripNationalPrefix
    }
    transform_rule = m.national_prefix_transform_rule();
    if (!TransformRuleUnderstood()) ok = false;
    if (m.has_leading_digits()) leading_digits = CompileRe(m.leading_digits(), &ok);
    usable = ok;
  }

  // Rules are digits and "$N" (N one digit, a group of the pattern, not followed by a digit):
  // then ICU's appendReplacement and the substitution in StripNationalPrefix agree.
  bool TransformRuleUnderstood() const {
    for (size_t i = 0; i < transform_rule.size(); ++i) {
      const char c = transform_rule[i];
      if (c >= '0' && c <= '9') continue;
      if (c != '$' || i + 1 >= transform_rule.size()) return false;
      const char d = transform_rule[i + 1];
      if (d < '0' || d > '9' || d - '0' > national_prefix_groups) return false;
      if (i + 2 < transform_rule.size() && transform_rule[i + 2] >= '0' &&
          transform_rule[i + 2] <= '9') {
        return false;
      }
      ++i;
    }
    return true;
  }

  bool Ready() {
    std::call_once(once, [this] { Compile(); });
    return usable;
  }

  // TestNumberLength(number, metadata) (type UNKNOWN: the general description's lengths).
  LengthResult TestLength(size_t n) const {
    if (general_first_length == -1) return LengthResult::kInvalidLength;
    if (general_local.Has(n)) return LengthResult::kLocalOnly;
    const int len = static_cast<int>(n);
    if (general_first_length == len) return LengthResult::kPossible;
    if (general_first_length > len) return LengthResult::kTooShort;
    if (general_last_length < len) return LengthResult::kTooLong;
    return general.lengths.Has(n) ? LengthResult::kPossible : LengthResult::kInvalidLength;
  }

  // GetNumberTypeHelper(nsn) != UNKNOWN.
  bool HasKnownType(std::string_view nsn) const {
    if (!general.Matches(nsn)) return false;
    for (const Desc& d : other_types) {
      if (d.Matches(nsn)) return true;
    }
    if (fixed_line.Matches(nsn)) return true;
    return !same_mobile_and_fixed_line && mobile.Matches(nsn);
  }

  // MaybeStripNationalPrefixAndCarrierCode (the carrier code is not kept: Parse drops it).
  void StripNationalPrefix(std::string* number) const {
    if (number->empty() || !national_prefix) return;
    const bool viable_original = general.PatternMatches(*number);
    re2::StringPiece groups[kMaxPrefixGroups + 1];
    const int n = national_prefix_groups + 1;
    if (!national_prefix->Match(Piece(*number), 0, number->size(), RE2::ANCHOR_START, groups, n)) {
      return;
    }
    const size_t end = groups[0].size();  // anchored: the match starts at 0
    // libphonenumber's Consume(&carrier, &captured) needs two groups, Consume(&captured) one;
    // the transform applies when the captured part is not empty.
    std::string_view captured;
    if (national_prefix_groups >= 2) {
      captured = std::string_view(groups[2].data(), groups[2].size());
    } else if (national_prefix_groups == 1) {
      captured = std::string_view(groups[1].data(), groups[1].size());
    }
    std::string result;
    if (!transform_rule.empty() && !captured.empty()) {
      // Replace() finds the first match, which is the anchored one: same start, same rules.
      for (size_t i = 0; i < transform_rule.size(); ++i) {
        if (transform_rule[i] == '$') {
          const re2::StringPiece& g = groups[transform_rule[++i] - '0'];
          result.append(g.data(), g.size());
        } else {
          result.push_back(transform_rule[i]);
        }
      }
      result.append(*number, end, std::string::npos);
    } else {
      result.assign(*number, end, std::string::npos);
    }
    if (viable_original && !general.PatternMatches(result)) return;
    *number = std::move(result);
  }
};

class Tables {
 public:
  static Tables& Get() {
    static Tables t;
    return t;
  }

  // The metadata of a region libphonenumber supports (IsValidRegionCode), or null.
  Meta* Region(std::string_view region) const {
    if (region.size() != 2 || region[0] < 'A' || region[0] > 'Z' || region[1] < 'A' ||
        region[1] > 'Z') {
      return nullptr;
    }
    return by_region_[(region[0] - 'A') * 26 + (region[1] - 'A')];
  }

  // GetRegionCodesForCountryCallingCode as metadata, in libphonenumber's order (the main
  // region first). Empty when the calling code is unknown.
  const std::vector<Meta*>& ForCallingCode(int cc) const { return by_cc_[cc]; }
  bool CallingCodeUsable(int cc) const { return cc_usable_[cc]; }

  bool ok() const { return ok_; }

 private:
  Tables() {
    if (!collection_.ParseFromArray(i18n::phonenumbers::metadata_get(),
                                    i18n::phonenumbers::metadata_size())) {
      return;
    }
    metas_.reserve(collection_.metadata_size());
    std::array<Meta*, 1000> non_geo{};
    by_region_.fill(nullptr);
    for (const PhoneMetadata& pm : collection_.metadata()) {
      auto m = std::make_unique<Meta>();
      m->proto = &pm;
      m->country_code = pm.country_code();
      m->country_code_str = std::to_string(pm.country_code());
      const std::string& id = pm.id();
      if (id == "001") {
        if (pm.country_code() > 0 && pm.country_code() < 1000) non_geo[pm.country_code()] = m.get();
      } else if (Region(id) == nullptr && id.size() == 2 && id[0] >= 'A' && id[0] <= 'Z' &&
                 id[1] >= 'A' && id[1] <= 'Z') {
        by_region_[(id[0] - 'A') * 26 + (id[1] - 'A')] = m.get();
      } else {
        return;  // an id this code does not expect: no fast path at all
      }
      metas_.push_back(std::move(m));
    }
    const PhoneNumberUtil& util = *PhoneNumberUtil::GetInstance();
    for (int cc = 1; cc < 1000; ++cc) {
      std::list<std::string> regions;
      util.GetRegionCodesForCountryCallingCode(cc, &regions);
      bool usable = true;
      for (const std::string& r : regions) {
        Meta* m = r == "001" ? non_geo[cc] : Region(r);
        if (m == nullptr || m->country_code != cc) {
          usable = false;
        } else {
          by_cc_[cc].push_back(m);
        }
      }
      cc_usable_[cc] = usable;
    }
    ok_ = true;
  }

  PhoneMetadataCollection collection_;
  std::vector<std::unique_ptr<Meta>> metas_;
  std::array<Meta*, 26 * 26> by_region_{};
  std::array<std::vector<Meta*>, 1000> by_cc_;
  std::array<bool, 1000> cc_usable_{};
  bool ok_ = false;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The shape: see the header. Collects the digits as Normalize() would leave them and whether a
// '+' leads them; false for any other shape (the fast path is then unsure).
bool CollectDigits(std::string_view number, std::string& digits, bool& plus) {
  if (number.size() > 64) return false;
  bool started = false;
  for (char c : number) {
    if (IsDigit(c)) {
      if (digits.size() == kMaxDigits) return false;
      digits.push_back(c);
      started = true;
    } else if (c == '+') {
      if (started) return false;
      plus = started = true;
    } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
      return false;
    }
  }
  return digits.size() >= 3;
}

// Each step below answers (kInvalid or kUnsure), or gives nullopt to go on to the next.

// MaybeExtractCountryCode: sets cc to the calling code the number names (0: it names none and is
// read in the default region) and leaves the rest of the digits in `national`.
std::optional<Outcome> ExtractCountryCode(const Tables& tables, Meta* default_meta, bool plus,
                                          std::string& national, int& cc) {
  bool idd = plus;
  if (!plus) {
    re2::StringPiece m;
    if (default_meta->international_prefix->Match(Piece(national), 0, national.size(),
                                                  RE2::ANCHOR_START, &m, 1)) {
      const size_t end = m.size();
      if (end >= national.size() || national[end] != '0') {
        national.erase(0, end);
        idd = true;
      }
    }
  }
  if (idd) {
    if (national.size() <= kMinLengthForNsn) return Outcome::kInvalid;  // TOO_SHORT_AFTER_IDD
    if (national[0] != '0') {
      for (size_t i = 1; i <= kMaxLengthCountryCode && i <= national.size(); ++i) {
        const int candidate = std::stoi(national.substr(0, i));
        if (!tables.ForCallingCode(candidate).empty()) {
          cc = candidate;
          national.erase(0, i);
          break;
        }
      }
    }
    // Unknown calling code: after a '+', libphonenumber retries without it; after an IDD it
    // gives INVALID_COUNTRY_CODE_ERROR.
    if (cc == 0) return plus ? Outcome::kUnsure : Outcome::kInvalid;
    return std::nullopt;
  }
  const std::string& ccs = default_meta->country_code_str;
  if (national.compare(0, ccs.size(), ccs) == 0) {
    std::string potential = national.substr(ccs.size());
    default_meta->StripNationalPrefix(&potential);
    if ((!default_meta->general.PatternMatches(national) &&
         default_meta->general.PatternMatches(potential)) ||
        default_meta->TestLength(national.size()) == LengthResult::kTooLong) {
      national = std::move(potential);
      cc = default_meta->country_code;
    }
  }
  return std::nullopt;
}

// The national significant number, read with the calling code's metadata (cc 0 becomes the
// default region's code). It keeps its leading zeros, as Parse (italian_leading_zero,
// number_of_leading_zeros) and GetNationalSignificantNumber do together.
std::optional<Outcome> NationalSignificantNumber(const Tables& tables, Meta* default_meta,
                                                 int& cc, std::string& national) {
  Meta* meta = default_meta;
  if (cc != 0) {
    if (!tables.CallingCodeUsable(cc)) return Outcome::kUnsure;
    meta = tables.ForCallingCode(cc).front();  // GetRegionCodeForCountryCode's region
  } else {
    cc = default_meta->country_code;
  }
  if (!meta->Ready()) return Outcome::kUnsure;
  if (national.size() < kMinLengthForNsn) return Outcome::kInvalid;  // TOO_SHORT_NSN
  std::string potential = national;
  meta->StripNationalPrefix(&potential);
  const LengthResult r = meta->TestLength(potential.size());
  if (r != LengthResult::kTooShort && r != LengthResult::kLocalOnly &&
      r != LengthResult::kInvalidLength) {
    national = std::move(potential);
  }
  if (national.size() < kMinLengthForNsn || national.size() > kMaxLengthForNsn) {
    return Outcome::kInvalid;  // TOO_SHORT_NSN, TOO_LONG_NSN
  }
  return std::nullopt;
}

// IsValidNumber: GetRegionCodeForNumber, then IsValidNumberForRegion.
Outcome Validity(const Tables& tables, int cc, const std::string& national) {
  if (!tables.CallingCodeUsable(cc)) return Outcome::kUnsure;
  const std::vector<Meta*>& candidates = tables.ForCallingCode(cc);
  if (candidates.size() == 1) {
    if (!candidates[0]->Ready()) return Outcome::kUnsure;
    return candidates[0]->HasKnownType(national) ? Outcome::kValid : Outcome::kInvalid;
  }
  for (Meta* m : candidates) {
    if (!m->Ready()) return Outcome::kUnsure;
    if (m->leading_digits) {
      if (m->leading_digits->Match(Piece(national), 0, national.size(), RE2::ANCHOR_START,
                                   nullptr, 0)) {
        return m->HasKnownType(national) ? Outcome::kValid : Outcome::kInvalid;
      }
    } else if (m->HasKnownType(national)) {
      return Outcome::kValid;
    }
  }
  return Outcome::kInvalid;
}

}  // namespace

Outcome Check(std::string_view number, std::string_view region, std::string* e164) {
  std::string national;
  bool plus = false;
  if (!CollectDigits(number, national, plus)) return Outcome::kUnsure;

  const Tables& tables = Tables::Get();
  if (!tables.ok()) return Outcome::kUnsure;
  Meta* default_meta = tables.Region(region);
  if (default_meta == nullptr && !plus) return Outcome::kInvalid;  // INVALID_COUNTRY_CODE_ERROR
  if (default_meta != nullptr && !default_meta->Ready()) return Outcome::kUnsure;

  int cc = 0;
  if (auto answer = ExtractCountryCode(tables, default_meta, plus, national, cc)) return *answer;
  if (auto answer = NationalSignificantNumber(tables, default_meta, cc, national)) return *answer;
  const Outcome outcome = Validity(tables, cc, national);
  if (outcome != Outcome::kValid) return outcome;
  e164->clear();
  e164->push_back('+');
  e164->append(std::to_string(cc));
  e164->append(national);
  return Outcome::kValid;
}

}  // namespace dq::validator::phone_fast_path
