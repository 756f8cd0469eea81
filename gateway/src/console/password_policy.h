// Which passwords sign-up refuses, besides their length (credentials.h): a password on the list
// of the most used ones (Openwall's 3,546 common passwords, public domain, as Debian's john-data
// installs it at /usr/share/john/password.lst; gateway/data/README.md), compared without case,
// also once the digits and symbols it ends with are taken off ("password1234" is "password");
// and a password equal to the e-mail address or to its part before the "@". Pure; the list is read once, on first use, from the
// copy the build embeds. Thread-safe.
#pragma once

#include <string_view>

#include "dq/common/status.h"

namespace dq::gateway {

// Errors (invalid_request, detail field "password"): "is one of the most used passwords; choose
// another" and "must not be your e-mail address".
Status CheckPasswordChoice(std::string_view password, std::string_view email);

// True when text, lower-cased, is on the list (for tests).
bool IsCommonPassword(std::string_view text);

}  // namespace dq::gateway
