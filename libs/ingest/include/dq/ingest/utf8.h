// UTF-8 validation for ingested files. Uploads must be UTF-8; anything else is reported with the
// position of the first bad byte rather than silently re-encoded (which would change the data the
// merchant gets back).
#pragma once

#include <cstddef>
#include <string_view>

namespace dq::ingest {

// Offset of the first byte of `text` that does not start or continue a well-formed UTF-8
// sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), or npos when the whole
// text is valid. A sequence cut off by the end of `text` counts as invalid at its first byte.
size_t FindInvalidUtf8(std::string_view text);

}  // namespace dq::ingest
