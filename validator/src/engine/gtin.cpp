#include "gtin.h"

#include "text.h"

namespace dq::validator::gtin {

int Gs1CheckDigit(std::string_view body) {
  int sum = 0;
  int weight = 3;
  for (size_t i = body.size(); i-- > 0;) {
    sum += (body[i] - '0') * weight;
    weight = 4 - weight;  // 3,1,3,1,...
  }
  return (10 - sum % 10) % 10;
}

bool Gs1Valid(std::string_view digits) {
  if (digits.size() < 2) return false;
  return Gs1CheckDigit(digits.substr(0, digits.size() - 1)) == digits.back() - '0';
}

std::optional<std::string> ExpandUpcE(std::string_view e) {
  if (e.size() != 8 || !text::IsAllDigits(e) || (e[0] != '0' && e[0] != '1')) return std::nullopt;
  const char s = e[0], d1 = e[1], d2 = e[2], d3 = e[3], d4 = e[4], d5 = e[5], d6 = e[6];
  const char x = e[7];
  std::string a;
  a.reserve(12);
  a.push_back(s);
  switch (d6) {
    case '0':
    case '1':
    case '2':
      a += {d1, d2, d6, '0', '0', '0', '0', d3, d4, d5};
      break;
    case '3':
      a += {d1, d2, d3, '0', '0', '0', '0', '0', d4, d5};
      break;
    case '4':
      a += {d1, d2, d3, d4, '0', '0', '0', '0', '0', d5};
      break;
    default:
      a += {d1, d2, d3, d4, d5, '0', '0', '0', '0', d6};
      break;
  }
  a.push_back(x);
  return a;
}

bool Isbn10Valid(std::string_view s) {
  if (s.size() != 10 || !text::IsAllDigits(s.substr(0, 9))) return false;
  if (!text::IsDigit(s[9]) && s[9] != 'X') return false;
  int sum = 0;
  for (size_t i = 0; i < 10; ++i) {
    const int d = s[i] == 'X' ? 10 : s[i] - '0';
    sum += d * static_cast<int>(10 - i);
  }
  return sum % 11 == 0;
}

std::string Isbn10To13(std::string_view isbn10) {
  std::string out = "978";
  out.append(isbn10.substr(0, 9));
  out.push_back(static_cast<char>('0' + Gs1CheckDigit(out)));
  return out;
}

Prefix ClassifyPrefix(std::string_view d) {
  if (d.size() == 8) {
    return (d[0] == '0' || d[0] == '2') ? Prefix::kRestricted : Prefix::kNormal;
  }
  // The first 3 digits of the 13-digit form.
  char p[3];
  if (d.size() == 12) {
    p[0] = '0', p[1] = d[0], p[2] = d[1];
  } else if (d.size() == 14) {
    p[0] = d[1], p[1] = d[2], p[2] = d[3];
  } else {
    p[0] = d[0], p[1] = d[1], p[2] = d[2];
  }
  if (p[0] == '2' || (p[0] == '0' && (p[1] == '2' || p[1] == '4'))) return Prefix::kRestricted;
  if ((p[0] == '0' && p[1] == '5') || (p[0] == '9' && (p[1] == '8' || p[1] == '9'))) {
    return Prefix::kCoupon;
  }
  if (p[0] == '9' && p[1] == '7' && (p[2] == '8' || p[2] == '9')) return Prefix::kIsbn;
  return Prefix::kNormal;
}

bool LooksScientific(std::string_view s) {
  // digits [. digits] (e|E) [+] digits
  size_t i = 0;
  const size_t n = s.size();
  size_t lead = 0;
  while (i < n && text::IsDigit(s[i])) ++i, ++lead;
  if (lead == 0) return false;
  if (i < n && (s[i] == '.' || s[i] == ',')) {
    ++i;
    while (i < n && text::IsDigit(s[i])) ++i;
  }
  if (i >= n || (s[i] != 'e' && s[i] != 'E')) return false;
  ++i;
  if (i < n && s[i] == '+') ++i;
  size_t exp = 0;
  while (i < n && text::IsDigit(s[i])) ++i, ++exp;
  return exp > 0 && i == n;
}

}  // namespace dq::validator::gtin
