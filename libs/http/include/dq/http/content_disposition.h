// Content-Disposition for a download named after a user's file: an ASCII `filename` for old
// clients plus RFC 6266 / RFC 8187 `filename*=UTF-8''…` with the real name. Control characters
// (C0, DEL, C1) and the bidirectional controls that can make "evil<U+202E>txt.exe" display as
// "evilexe.txt" (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) are removed from both,
// as are bytes that are not UTF-8. Pure.
#pragma once

#include <string>
#include <string_view>

namespace dq::http {

// `attachment; filename="<ascii>"; filename*=UTF-8''<percent-encoded>`. In the ASCII name, '"',
// '\' and every non-ASCII character become '_'. An empty name (after removal) is "download".
std::string AttachmentDisposition(std::string_view filename);

}  // namespace dq::http
