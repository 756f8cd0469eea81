#include "dq/ingest/multipart.h"

#include <gtest/gtest.h>

#include "dq/ingest/upload_form.h"

namespace dq::ingest {
namespace {

// Records parser events as text: "begin name=file filename=a.csv type=text/csv", "data ...",
// "end". Adjacent data pieces are merged so every chunking gives the same log.
class RecordingHandler : public MultipartHandler {
 public:
  Status OnPartBegin(const PartHeaders& h) override {
    log.push_back("begin name=" + h.name +
                  (h.filename ? " filename=" + *h.filename : std::string()) +
                  (h.content_type.empty() ? std::string() : " type=" + h.content_type));
    return Status::Ok();
  }
  Status OnPartData(std::string_view bytes) override {
    if (!log.empty() && log.back().starts_with("data ")) {
      log.back().append(bytes);
    } else {
      log.push_back("data " + std::string(bytes));
    }
    return Status::Ok();
  }
  Status OnPartEnd() override {
    log.push_back("end");
    return Status::Ok();
  }
  std::vector<std::string> log;
};

struct Outcome {
  std::vector<std::string> log;
  ErrorCode code = ErrorCode::kOk;
  std::string message;
};

Outcome Parse(std::string_view body, size_t chunk, const MultipartLimits& limits = {},
              const std::string& boundary = "XyZ") {
  RecordingHandler h;
  MultipartParser p(boundary, limits, h);
  Outcome out;
  Status s;
  if (chunk == 0) chunk = std::max<size_t>(body.size(), 1);
  for (size_t at = 0; s.ok() && at < body.size(); at += chunk) {
    std::string piece(body.substr(at, chunk));  // released after Feed returns
    s = p.Feed(piece);
  }
  if (s.ok()) s = p.Finish();
  out.log = h.log;
  out.code = s.code();
  out.message = s.message();
  return out;
}

struct MultipartCase {
  const char* name;
  std::string body;
  std::vector<std::string> log;
  ErrorCode code = ErrorCode::kOk;
  std::string message = "";
  MultipartLimits limits = {};
};

class MultipartTest : public ::testing::TestWithParam<MultipartCase> {};

TEST_P(MultipartTest, SameOutcomeInEveryChunking) {
  const MultipartCase& c = GetParam();
  for (size_t chunk : {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 64}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    Outcome out = Parse(c.body, chunk, c.limits);
    EXPECT_EQ(out.code, c.code);
    EXPECT_EQ(out.message, c.message);
    if (c.code == ErrorCode::kOk) {
      EXPECT_EQ(out.log, c.log);
    }
  }
}

const std::string kFilePart =
    "--XyZ\r\n"
    "Content-Disposition: form-data; name=\"file\"; filename=\"p.csv\"\r\n"
    "Content-Type: text/csv\r\n"
    "\r\n"
    "a,b\r\n1,2\r\n"
    "\r\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, MultipartTest,
    ::testing::Values(
        MultipartCase{"one_file_part", kFilePart + "--XyZ--\r\n",
                      {"begin name=file filename=p.csv type=text/csv", "data a,b\r\n1,2\r\n",
                       "end"}},
        MultipartCase{"preamble_and_epilogue",
                      "this is a preamble\r\n" + kFilePart + "--XyZ--\r\nepilogue --XyZ junk",
                      {"begin name=file filename=p.csv type=text/csv", "data a,b\r\n1,2\r\n",
                       "end"}},
        MultipartCase{"text_parts_and_padding",
                      "--XyZ \t\r\nContent-Disposition: form-data; name=mapping\r\n\r\n"
                      "{\"sku\":\"SKU\"}\r\n--XyZ\r\ncontent-disposition: FORM-DATA; "
                      "name=\"check_types\"\r\n\r\nproduct\r\n--XyZ--",
                      {"begin name=mapping", "data {\"sku\":\"SKU\"}", "end",
                       "begin name=check_types", "data product", "end"}},
        MultipartCase{"empty_part_body",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\r\n--XyZ--",
                      {"begin name=file", "end"}},
        MultipartCase{"boundary_lookalikes_in_data",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n"
                      "--XyZ\r\n-XyZ\r\r\n--Xy\r\n--X\r\n\r\n--XyZ--",
                      {"begin name=file", "data --XyZ\r\n-XyZ\r\r\n--Xy\r\n--X\r\n", "end"}},
        MultipartCase{"filename_star_wins",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"; "
                      "filename*=UTF-8''%E5%95%86%E5%93%81.csv\r\n\r\nx\r\n--XyZ--",
                      {"begin name=file filename=\xE5\x95\x86\xE5\x93\x81.csv", "data x", "end"}},
        MultipartCase{"quoted_escapes_in_params",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; "
                      "filename=\"a\\\"b;c.csv\"\r\n\r\nx\r\n--XyZ--",
                      {"begin name=file filename=a\"b;c.csv", "data x", "end"}},
        MultipartCase{"no_parts_only_close", "--XyZ--\r\n", {}},
        MultipartCase{"missing_boundary_line", "hello world", {}, ErrorCode::kInvalidRequest,
                      "The multipart body has no boundary line (--boundary from the "
                      "Content-Type)."},
        MultipartCase{"empty_body", "", {}, ErrorCode::kInvalidRequest,
                      "The multipart body has no boundary line (--boundary from the "
                      "Content-Type)."},
        MultipartCase{"unterminated_part", kFilePart, {}, ErrorCode::kInvalidRequest,
                      "The multipart body ends inside part 1, before the closing boundary."},
        MultipartCase{"ends_in_headers",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\"\r\n", {},
                      ErrorCode::kInvalidRequest,
                      "The multipart body ends inside the headers of part 1."},
        MultipartCase{"ends_after_boundary", "--XyZ", {}, ErrorCode::kInvalidRequest,
                      "The multipart body ends inside a boundary line."},
        MultipartCase{"garbage_after_boundary", "--XyZabc\r\n", {}, ErrorCode::kInvalidRequest,
                      "Malformed multipart boundary line (after part 0)."},
        MultipartCase{"bare_lf_after_boundary", "--XyZ\nContent-Disposition: form-data\n", {},
                      ErrorCode::kInvalidRequest,
                      "Malformed multipart boundary line (after part 0)."},
        MultipartCase{"header_too_long",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"" + std::string(100, 'n') +
                          "\"\r\n\r\nx\r\n--XyZ--",
                      {}, ErrorCode::kInvalidRequest,
                      "Part 1: the header block is longer than 64 bytes.",
                      MultipartLimits{.max_header_bytes = 64}},
        MultipartCase{"header_without_terminator_too_long",
                      "--XyZ\r\n" + std::string(200, 'h'), {}, ErrorCode::kInvalidRequest,
                      "Part 1: the header block is longer than 64 bytes.",
                      MultipartLimits{.max_header_bytes = 64}},
        MultipartCase{"too_many_parts",
                      "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n"
                      "--XyZ\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n"
                      "--XyZ\r\nContent-Disposition: form-data; name=c\r\n\r\n3\r\n--XyZ--",
                      {}, ErrorCode::kInvalidRequest, "The form has more than 2 parts.",
                      MultipartLimits{.max_parts = 2}},
        MultipartCase{"no_content_disposition",
                      "--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--", {},
                      ErrorCode::kInvalidRequest,
                      "Part 1: no Content-Disposition: form-data header with a name."},
        MultipartCase{"no_headers_at_all", "--XyZ\r\n\r\nx\r\n--XyZ--", {},
                      ErrorCode::kInvalidRequest,
                      "Part 1: no Content-Disposition: form-data header with a name."},
        MultipartCase{"disposition_not_form_data",
                      "--XyZ\r\nContent-Disposition: attachment; name=\"file\"\r\n\r\nx\r\n"
                      "--XyZ--",
                      {}, ErrorCode::kInvalidRequest,
                      "Part 1: Content-Disposition must be form-data with a name."},
        MultipartCase{"malformed_header_line",
                      "--XyZ\r\nno colon here\r\n\r\nx\r\n--XyZ--", {}, ErrorCode::kInvalidRequest,
                      "Part 1: malformed header line."},
        MultipartCase{"folded_header",
                      "--XyZ\r\nContent-Disposition: form-data;\r\n name=\"file\"\r\n\r\nx\r\n"
                      "--XyZ--",
                      {}, ErrorCode::kInvalidRequest,
                      "Part 1: folded header lines are not supported."},
        MultipartCase{"unclosed_quoted_param",
                      "--XyZ\r\nContent-Disposition: form-data; name=\"file\r\n\r\nx\r\n--XyZ--",
                      {}, ErrorCode::kInvalidRequest,
                      "Part 1: Content-Disposition must be form-data with a name."}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(MultipartTest, EverySplitPointGivesTheSameEvents) {
  const std::string body = "pre\r\n" + kFilePart +
                           "--XyZ\r\nContent-Disposition: form-data; name=\"platform\"\r\n\r\n"
                           "marketplace2\r\n--XyZ--\r\n";
  const Outcome whole = Parse(body, 0);
  ASSERT_EQ(whole.code, ErrorCode::kOk);
  for (size_t split = 0; split <= body.size(); ++split) {
    RecordingHandler h;
    MultipartParser p("XyZ", {}, h);
    ASSERT_TRUE(p.Feed(std::string(body.substr(0, split))).ok());
    ASSERT_TRUE(p.Feed(std::string(body.substr(split))).ok());
    ASSERT_TRUE(p.Finish().ok());
    EXPECT_EQ(h.log, whole.log) << "split at " << split;
  }
}

TEST(MultipartTest, HandlerErrorsStopTheParser) {
  struct Refuse : RecordingHandler {
    Status OnPartData(std::string_view) override {
      return Status(ErrorCode::kFileTooLarge, "too big");
    }
  } h;
  MultipartParser p("XyZ", {}, h);
  Status s = p.Feed(kFilePart + "--XyZ--");
  EXPECT_EQ(s.code(), ErrorCode::kFileTooLarge);
  EXPECT_EQ(p.Feed("more").code(), ErrorCode::kFileTooLarge);
  EXPECT_EQ(p.Finish().code(), ErrorCode::kFileTooLarge);
}

struct BoundaryCase {
  const char* name;
  std::string content_type;
  std::string boundary;  // "" when an error is expected
  std::string message = "";
};

class BoundaryTest : public ::testing::TestWithParam<BoundaryCase> {};

TEST_P(BoundaryTest, ParsesTheContentType) {
  const BoundaryCase& c = GetParam();
  Result<std::string> b = BoundaryFromContentType(c.content_type);
  if (c.boundary.empty()) {
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.status().code(), ErrorCode::kInvalidRequest);
    EXPECT_EQ(b.status().message(), c.message);
  } else {
    ASSERT_TRUE(b.ok()) << b.status().message();
    EXPECT_EQ(*b, c.boundary);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BoundaryTest,
    ::testing::Values(
        BoundaryCase{"plain", "multipart/form-data; boundary=abc123", "abc123"},
        BoundaryCase{"browser", "multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxk",
                     "----WebKitFormBoundary7MA4YWxk"},
        BoundaryCase{"quoted_with_space", "Multipart/Form-Data; charset=utf-8; BOUNDARY=\"a b\"",
                     "a b"},
        BoundaryCase{"missing", "multipart/form-data", "",
                     "The multipart/form-data Content-Type has no boundary parameter."},
        BoundaryCase{"empty", "multipart/form-data; boundary=", "",
                     "The multipart/form-data Content-Type has no boundary parameter."},
        BoundaryCase{"not_multipart", "text/csv", "",
                     "The Content-Type is not multipart/form-data."},
        BoundaryCase{"too_long", "multipart/form-data; boundary=" + std::string(71, 'b'), "",
                     "The multipart boundary is invalid: 1 to 70 letters, digits or "
                     "'()+_,-./:=? characters, not ending in a space."},
        BoundaryCase{"bad_char", "multipart/form-data; boundary=\"a\\\"b\"", "",
                     "The multipart boundary is invalid: 1 to 70 letters, digits or "
                     "'()+_,-./:=? characters, not ending in a space."},
        BoundaryCase{"malformed", "multipart/form-data; boundary", "",
                     "The Content-Type header is malformed."}),
    [](const auto& info) { return std::string(info.param.name); });

// ---- the upload form ---------------------------------------------------------------------------

constexpr std::string_view kType = "multipart/form-data; boundary=XyZ";

std::string Part(std::string_view name, std::string_view value, std::string_view extra = "") {
  return "--XyZ\r\nContent-Disposition: form-data; name=\"" + std::string(name) + "\"" +
         std::string(extra) + "\r\n\r\n" + std::string(value) + "\r\n";
}

TEST(UploadFormTest, CollectsAllFieldsWithoutCopyingTheFile) {
  const std::string body = Part("mapping", R"({"sku":"SKU"})") +
                           Part("file", "SKU\nA1\n", "; filename=\"p.csv\"\r\nContent-Type: text/csv") +
                           Part("check_types", "product,price") + Part("platform", "marketplace2") +
                           "--XyZ--\r\n";
  Result<UploadForm> form = ParseUploadForm(kType, body);
  ASSERT_TRUE(form.ok()) << form.status().message();
  EXPECT_EQ(form->file(), "SKU\nA1\n");
  EXPECT_GE(form->file().data(), body.data());  // a view into the body
  EXPECT_LT(form->file().data(), body.data() + body.size());
  EXPECT_EQ(form->filename(), "p.csv");
  EXPECT_EQ(form->file_content_type(), "text/csv");
  EXPECT_EQ(form->mapping, R"({"sku":"SKU"})");
  EXPECT_EQ(form->check_types, "product,price");
  EXPECT_EQ(form->platform, "marketplace2");
}

TEST(UploadFormTest, ChunkedInputIsCopiedOnce) {
  const std::string body = Part("file", "SKU\nA1\nA2\n") + "--XyZ--";
  FormCollector collector({});
  MultipartParser parser("XyZ", {}, collector);
  for (char c : body) ASSERT_TRUE(parser.Feed(std::string(1, c)).ok());
  ASSERT_TRUE(parser.Finish().ok());
  Result<UploadForm> form = collector.Take();
  ASSERT_TRUE(form.ok());
  UploadForm moved = std::move(*form);
  EXPECT_EQ(moved.file(), "SKU\nA1\nA2\n");
  EXPECT_EQ(moved.filename(), "");
  EXPECT_FALSE(moved.mapping.has_value());
}

struct FormErrorCase {
  const char* name;
  std::string body;
  ErrorCode code;
  std::string message;
};

class UploadFormErrorTest : public ::testing::TestWithParam<FormErrorCase> {};

TEST_P(UploadFormErrorTest, Fails) {
  UploadLimits limits;
  limits.max_file_bytes = 10;
  limits.max_text_part_bytes = 8;
  Result<UploadForm> form = ParseUploadForm(kType, GetParam().body, limits);
  ASSERT_FALSE(form.ok());
  EXPECT_EQ(form.status().code(), GetParam().code);
  EXPECT_EQ(form.status().message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UploadFormErrorTest,
    ::testing::Values(
        FormErrorCase{"no_file", Part("platform", "x") + "--XyZ--", ErrorCode::kInvalidRequest,
                      "The form has no 'file' field."},
        FormErrorCase{"file_twice", Part("file", "a") + Part("file", "b") + "--XyZ--",
                      ErrorCode::kInvalidRequest,
                      "The form field 'file' appears more than once."},
        FormErrorCase{"unknown_field", Part("file", "a") + Part("checktypes", "b") + "--XyZ--",
                      ErrorCode::kInvalidRequest,
                      "Unknown form field 'checktypes'; the fields are file, mapping, "
                      "check_types, platform, source, weight_unit, feed and max_rows."},
        FormErrorCase{"file_too_large", Part("file", "01234567890") + "--XyZ--",
                      ErrorCode::kFileTooLarge, "The file is larger than 10 bytes."},
        FormErrorCase{"text_too_long", Part("file", "a") + Part("mapping", "{\"a\":\"bc\"}") +
                                           "--XyZ--",
                      ErrorCode::kInvalidRequest,
                      "The form field 'mapping' is longer than 8 bytes."},
        FormErrorCase{"text_not_utf8", Part("file", "a") + Part("platform", "\xE9t\xE9") +
                                           "--XyZ--",
                      ErrorCode::kInvalidRequest,
                      "The form field 'platform' is not valid UTF-8."},
        FormErrorCase{"unterminated", Part("file", "abc"), ErrorCode::kInvalidRequest,
                      "The multipart body ends inside part 1, before the closing boundary."}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(UploadFormTest, BadContentTypeIsReported) {
  Result<UploadForm> form = ParseUploadForm("multipart/form-data", "--x--");
  EXPECT_EQ(form.status().message(),
            "The multipart/form-data Content-Type has no boundary parameter.");
}

}  // namespace
}  // namespace dq::ingest
