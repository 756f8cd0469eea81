// gzip (RFC 1952) decompression through zlib, for uploads sent with `Content-Encoding: gzip` or
// as a .gz file. Streams: zlib inflates into an output buffer that grows geometrically (sized
// first from the gzip trailer's hint) but never past `max_bytes + 1`, so a compression bomb is
// stopped after at most `max_bytes + 1` bytes of output, never fully inflated. Several concatenated members (as `cat a.gz
// b.gz` makes) are read as one stream, as gzip(1) does.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq::ingest {

// True when `bytes` starts with the gzip magic number (1F 8B).
bool LooksGzip(std::string_view bytes);

// The decompressed bytes.
// Errors: kFileTooLarge when the output would pass max_bytes; kInvalidRequest for corrupt or
// truncated data (the message names the compressed byte offset).
Result<std::string> Gunzip(std::string_view compressed, size_t max_bytes);

}  // namespace dq::ingest
