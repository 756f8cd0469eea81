// Multipart parser and upload form: no crash, no leak; any chunking gives the same events and
// the same success or failure as one whole Feed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_util.h"
#include "dq/ingest/multipart.h"
#include "dq/ingest/upload_form.h"

using namespace dq;
using namespace dq::ingest;

namespace {

class Log : public MultipartHandler {
 public:
  Status OnPartBegin(const PartHeaders& h) override {
    events.push_back("B" + h.name + "|" + h.filename.value_or("-") + "|" + h.content_type);
    return Status::Ok();
  }
  Status OnPartData(std::string_view bytes) override {
    if (!events.empty() && events.back()[0] == 'D') {
      events.back().append(bytes);
    } else {
      events.push_back("D" + std::string(bytes));
    }
    return Status::Ok();
  }
  Status OnPartEnd() override {
    events.push_back("E");
    return Status::Ok();
  }
  std::vector<std::string> events;
};

struct Outcome {
  std::vector<std::string> events;
  dq::ErrorCode code;
};

Outcome Run(std::string_view data, size_t chunk) {
  Log log;
  MultipartLimits limits;
  limits.max_parts = 8;
  limits.max_header_bytes = 256;
  MultipartParser parser("B0und", limits, log);
  if (chunk == 0) chunk = data.size() + 1;
  dq::Status s;
  std::string buffer;
  for (size_t at = 0; s.ok() && at < data.size(); at += chunk) {
    buffer.assign(data.substr(at, chunk));
    s = parser.Feed(buffer);
    for (char& c : buffer) c = '\x7f';
  }
  if (s.ok()) s = parser.Finish();
  return {log.events, s.code()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size == 0) return 0;
  const size_t chunk = 1 + (bytes[0] & 0x3F);
  const std::string_view data(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  const Outcome whole = Run(data, 0);
  const Outcome chunked = Run(data, chunk);
  fuzz::Check(whole.code == chunked.code, "whole and chunked multipart disagree on the result");
  if (whole.code == dq::ErrorCode::kOk) {
    fuzz::Check(whole.events == chunked.events, "whole and chunked multipart events differ");
  }
  UploadLimits limits;
  limits.max_file_bytes = 1024;
  limits.max_text_part_bytes = 64;
  Result<UploadForm> form = ParseUploadForm("multipart/form-data; boundary=B0und", data, limits);
  if (form.ok()) fuzz::Check(form->file().size() <= 1024, "file over the limit accepted");
  IgnoreError(BoundaryFromContentType(data), "fuzzed for crashes: arbitrary Content-Type values");
  return 0;
}
