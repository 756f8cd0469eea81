#include "email.h"

#include "text.h"

namespace dq::validator::email {
namespace {

bool IsAtext(unsigned char c) {
  if (c >= 0x80) return true;  // UTF-8 (validity is checked once for the whole address)
  if (text::IsAsciiAlpha(static_cast<char>(c)) || text::IsDigit(static_cast<char>(c))) {
    return true;
  }
  return std::string_view("!#$%&'*+-/=?^_`{|}~").find(static_cast<char>(c)) !=
         std::string_view::npos;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (text::ToLower(a[i]) != b[i]) return false;
  }
  return true;
}

Result Invalid(std::string_view why) { return {Verdict::kInvalid, why}; }

}  // namespace

Result Check(std::string_view a) {
  if (a.empty()) return Invalid("The e-mail address is empty.");
  const size_t at = a.find('@');
  if (at == std::string_view::npos) return Invalid("The e-mail address must have an @-sign.");
  if (a.find('@', at + 1) != std::string_view::npos) {
    return Invalid("The e-mail address must have exactly one @-sign.");
  }
  if (!text::IsValidUtf8(a)) return Invalid("The e-mail address is not valid UTF-8 text.");
  if (a.size() > 254) return Invalid("The e-mail address is longer than 254 characters.");
  const std::string_view local = a.substr(0, at);
  const std::string_view domain = a.substr(at + 1);
  if (local.empty()) return Invalid("There must be something before the @-sign.");
  if (local.size() > 64) return Invalid("The part before the @-sign is longer than 64 characters.");
  if (local.front() == '.' || local.back() == '.') {
    return Invalid("The part before the @-sign cannot start or end with a period.");
  }
  for (size_t i = 0; i < local.size(); ++i) {
    const char c = local[i];
    if (c == '.') {
      if (local[i + 1] == '.')
        return Invalid("An e-mail address cannot have two periods in a row.");
      continue;
    }
    if (!IsAtext(static_cast<unsigned char>(c))) {
      return Invalid("The part before the @-sign contains a character that is not allowed.");
    }
  }
  if (domain.empty()) return Invalid("There must be a domain after the @-sign.");
  if (domain.size() > 253) return Invalid("The domain is longer than 253 characters.");
  size_t labels = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = domain.find('.', start);
    const std::string_view label =
        domain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty())
      return Invalid("The domain has an empty label (two periods, or a period at an end).");
    if (label.size() > 63) return Invalid("A label of the domain is longer than 63 characters.");
    if (label.front() == '-' || label.back() == '-') {
      return Invalid("A label of the domain cannot start or end with a hyphen.");
    }
    if (label.size() >= 4 && label[2] == '-' && label[3] == '-' &&
        !EqualsIgnoreCase(label.substr(0, 2), "xn")) {
      return Invalid(
          "A label of the domain cannot have hyphens in its third and fourth positions.");
    }
    for (char c : label) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x80 && !text::IsAsciiAlpha(c) && !text::IsDigit(c) && c != '-') {
        return Invalid("The domain contains a character that is not allowed.");
      }
    }
    ++labels;
    if (dot == std::string_view::npos) {
      if (!text::IsAsciiAlpha(label.back())) {
        return Invalid("The domain does not end in a valid top-level domain.");
      }
      break;
    }
    start = dot + 1;
  }
  if (labels < 2) return Invalid("The domain must have a period, e.g. example.com.");
  // Special-use names (RFC 6761 and friends): the top-level label decides.
  const size_t last_dot = domain.rfind('.');
  const std::string_view tld = domain.substr(last_dot + 1);
  for (std::string_view s : {"arpa", "invalid", "local", "localhost", "onion", "test"}) {
    if (EqualsIgnoreCase(tld, s)) return {Verdict::kSpecialUse, {}};
  }
  return {};
}

}  // namespace dq::validator::email
