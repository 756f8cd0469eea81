// The image rule's value check (rules.h CheckImageValue): an absolute http(s) URL, or, where
// the source's import takes them, a file name from its import folder (Magento 2's base_image
// "magento_image.jpg"). Split from product.cpp, which runs it on image_url, on each item of a
// list cell, on additional_image_link and on the further columns (ForEachExtra).
#include <algorithm>
#include <string>
#include <vector>

#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (text::ToLower(s[i]) != prefix[i]) return false;
  }
  return true;
}

// A file name (or relative path) as Magento 2's importer takes it from its import folder:
// ASCII letters, digits and - _ . / \ only, no ".." folder step (its Media validator's
// PATH_REGEXP), and an extension among `extensions` (its Uploader takes jpg, jpeg, gif, png).
// With `renamed` (a column its import does not validate, which its uploader renames: Magento's
// swatch_image, getCorrectFileName), any character but a control character.
bool IsImportFileName(std::string_view name, const std::vector<std::string>& extensions,
                      bool renamed) {
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (renamed ? (u < 0x20 || u == 0x7f)
                : !text::IsAsciiAlpha(c) && !text::IsDigit(c) &&
                      std::string_view("-_./\\").find(c) == std::string_view::npos) {
      return false;
    }
  }
  for (size_t i = name.find(".."); i != std::string_view::npos; i = name.find("..", i + 1)) {
    const bool starts_step = i == 0 || name[i - 1] == '/' || name[i - 1] == '\\';
    const bool ends_step = i + 2 < name.size() && (name[i + 2] == '/' || name[i + 2] == '\\');
    if (starts_step && ends_step) return false;
  }
  const size_t dot = name.rfind('.');
  const size_t slash = name.find_last_of("/\\");
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size() ||
      (slash != std::string_view::npos && (dot < slash || dot == slash + 1))) {
    return false;
  }
  std::string ext(name.substr(dot + 1));
  for (char& c : ext) c = text::ToLower(c);
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

// The host a value names before its first folder, when it reads as a URL written without its
// scheme ("www.example.com/x.jpg", "cdn.shop.com/a/b.png", "//cdn.shop.com/x.jpg",
// "192.0.2.1/x.jpg"): a first segment of dot-separated labels (letters, digits, '-') ending in a
// label of two or more letters that is no image extension, or four numeric labels, followed by
// a '/' or '\'. Empty when it does not. An import folder has no such folder in practice, and
// the merchant meant a URL.
std::string_view HostLikeFirstSegment(std::string_view name,
                                      const std::vector<std::string>& extensions) {
  if (name.starts_with("//")) {
    name.remove_prefix(2);
    return name.substr(0, name.find_first_of("/\\"));
  }
  const size_t slash = name.find_first_of("/\\");
  if (slash == std::string_view::npos || slash == 0) return {};
  const std::string_view host = name.substr(0, slash);
  size_t labels = 0, numeric = 0;
  std::string_view last;
  for (size_t start = 0; start <= host.size();) {
    size_t dot = host.find('.', start);
    if (dot == std::string_view::npos) dot = host.size();
    const std::string_view label = host.substr(start, dot - start);
    if (label.empty()) return {};
    bool digits = true;
    for (char c : label) {
      if (!text::IsAsciiAlpha(c) && !text::IsDigit(c) && c != '-') return {};
      digits = digits && text::IsDigit(c);
    }
    ++labels;
    numeric += digits ? 1 : 0;
    last = label;
    start = dot + 1;
  }
  if (labels == 4 && numeric == 4) return host;
  if (labels < 2 || last.size() < 2) return {};
  std::string tld;
  for (char c : last) {
    if (!text::IsAsciiAlpha(c)) return {};
    tld.push_back(text::ToLower(c));
  }
  if (std::find(extensions.begin(), extensions.end(), tld) != extensions.end()) return {};
  return host;
}

}  // namespace

void CheckImageValue(RowContext& ctx, Field f) {
  const std::string_view url = ctx.value(f);
  if (!IsWellFormedHttpUrl(url)) {
    const FieldConvention& convention = ctx.convention(f);
    const auto& extensions = convention.file_extensions;
    if (extensions.empty()) {
      ctx.Report(IssueCode::INVALID_IMAGE_URL, f);
    } else if (const std::string_view host = HostLikeFirstSegment(url, extensions);
               !host.empty()) {
      ctx.Report(IssueCode::INVALID_IMAGE_URL, f,
                 "A URL without its scheme: " + std::string(text::Utf8Prefix(host, 80)) +
                     " is a host name, not a folder of the import folder; write the URL with "
                     "https:// (or http://) before it");
    } else if (url.find("://") != std::string_view::npos ||
               !IsImportFileName(url, extensions, convention.renamed_file_names)) {
      std::string listed;
      for (const std::string& ext : extensions) listed += (listed.empty() ? "." : ", .") + ext;
      ctx.Report(IssueCode::INVALID_IMAGE_URL, f,
                 convention.renamed_file_names
                     ? "Neither an absolute http or https URL nor a file name in the source's "
                       "import folder (ending in " +
                           listed + ")"
                     : "Neither an absolute http or https URL nor a file name the source's "
                       "import takes from its import folder (ASCII letters, digits and - _ . / "
                       "only, ending in " +
                           listed + ")");
    }
    return;
  }
  // Templates make plain http an error (PLATFORM_IMAGE_NOT_HTTPS) in the field's own column; they
  // never see a further column's.
  const bool judged_by_templates = ctx.spec().platform != Platform::kNone && ctx.extra() == nullptr;
  if (!judged_by_templates && !StartsWithNoCase(url, "https://")) {
    ctx.Report(IssueCode::IMAGE_URL_NOT_HTTPS, f);
  }
}

}  // namespace dq::validator::rules
