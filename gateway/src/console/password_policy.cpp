#include "password_policy.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "dq/common/ascii.h"

// Generated from john-data's password.lst (gateway/CMakeLists.txt, DQ_COMMON_PASSWORDS_FILE).
extern const std::string_view kCommonPasswordsText;

namespace dq::gateway {
namespace {

// The list, lower-cased, sorted, without duplicates.
const std::vector<std::string>& List() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> out;
    std::string_view text = kCommonPasswordsText;
    while (!text.empty()) {
      const size_t nl = text.find('\n');
      std::string_view line = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      // "#!comment: ..." lines are the file's own notes (John the Ripper's wordlist format).
      if (!line.empty() && !line.starts_with("#!comment")) out.push_back(ascii::Lower(line));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }();
  return list;
}

Status PasswordError(const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, "password: " + message, {{"password", message}});
}

}  // namespace

bool IsCommonPassword(std::string_view text) {
  const std::string lower = ascii::Lower(text);
  return std::binary_search(List().begin(), List().end(), lower);
}

Status CheckPasswordChoice(std::string_view password, std::string_view email) {
  const std::string lower = ascii::Lower(password);
  const std::string mail = ascii::Lower(email);
  if (lower == mail || lower == mail.substr(0, mail.find('@'))) {
    return PasswordError("must not be your e-mail address");
  }
  // "Summer2024!" and "password1234" are their word with a common ending.
  size_t end = lower.size();
  while (end > 0) {
    const unsigned char c = static_cast<unsigned char>(lower[end - 1]);
    if (std::isalpha(c) || c >= 0x80) break;
    --end;
  }
  if (IsCommonPassword(lower) || (end >= 3 && IsCommonPassword(lower.substr(0, end)))) {
    return PasswordError("is one of the most used passwords; choose another");
  }
  return Status::Ok();
}

}  // namespace dq::gateway
