#include "console/console_site.h"

#include <utility>

#include "dq/common/crypto.h"
#include "dq/http/error_response.h"

namespace dq::gateway {
namespace {

constexpr std::string_view kPrefix = "/console";
constexpr std::string_view kStatic = "/console/static/";
// What page files write where the version goes.
constexpr std::string_view kVersionPlaceholder = "/console/static/_/";
constexpr std::string_view kImmutable = "public, max-age=31536000, immutable";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string ReplaceAll(std::string s, std::string_view from, std::string_view to) {
  size_t at = 0;
  while ((at = s.find(from, at)) != std::string::npos) {
    s.replace(at, from.size(), to);
    at += to.size();
  }
  return s;
}

// A page name is lower-case letters and dashes: nothing that could climb out of pages/.
bool IsPageName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || c == '-')) return false;
  }
  return true;
}

void AddSecurityHeaders(http::HttpResponse& r) {
  r.SetHeader("Content-Security-Policy", kConsoleContentSecurityPolicy);
  r.SetHeader("X-Content-Type-Options", "nosniff");
  r.SetHeader("Referrer-Policy", "same-origin");
  r.SetHeader("X-Frame-Options", "DENY");
}

http::HttpResponse NotFound(std::string_view path) {
  http::HttpResponse r = http::ErrorResponse(Status(
      ErrorCode::kNotFound, "There is no console page or file at " + std::string(path) + "."));
  AddSecurityHeaders(r);
  return r;
}

}  // namespace

const char kConsoleContentSecurityPolicy[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'";

std::string_view ContentTypeFor(std::string_view path) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
  };
  for (const auto& [ext, type] : kTypes) {
    if (EndsWith(path, ext)) return type;
  }
  return "application/octet-stream";
}

ConsoleSite::ConsoleSite(std::map<std::string, std::string> files) {
  // The version covers every asset (not the pages, which are never cached).
  std::string digest_input;
  for (const auto& [path, body] : files) {
    if (path.starts_with("pages/")) continue;
    digest_input += path;
    digest_input += '\0';
    digest_input += Sha256Hex(body);
    digest_input += '\n';
  }
  version_ = Sha256Hex(digest_input).substr(0, 12);
  const std::string versioned = std::string(kStatic) + version_ + "/";
  for (auto& [path, body] : files) {
    File f;
    f.body = path.ends_with(".html") ? ReplaceAll(std::move(body), kVersionPlaceholder, versioned)
                                     : std::move(body);
    f.etag = "\"" + Sha256Hex(f.body).substr(0, 16) + "\"";
    files_.emplace(path, std::move(f));
  }
}

bool ConsoleSite::Owns(std::string_view path) {
  if (path == kPrefix) return true;
  if (!path.starts_with("/console/")) return false;
  return !(path == "/console/api" || path.starts_with("/console/api/"));
}

http::HttpResponse ConsoleSite::Serve(const http::HttpRequest& request) const {
  std::string_view path = request.path;
  if (request.method != "GET" && request.method != "HEAD") {
    http::HttpResponse r = http::ErrorResponse(
        Status(ErrorCode::kMethodNotAllowed,
               request.method + " is not allowed on " + request.path + "; use GET."));
    r.SetHeader("Allow", "GET, HEAD");
    AddSecurityHeaders(r);
    return r;
  }
  if (path == kPrefix) {
    http::HttpResponse r;
    r.status = 301;
    r.content_type = "text/plain; charset=utf-8";
    r.SetHeader("Location", "/console/");
    AddSecurityHeaders(r);
    return r;
  }
  if (path.starts_with(kStatic)) {
    std::string_view rest = path.substr(kStatic.size());
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return NotFound(path);
    const std::string_view version = rest.substr(0, slash);
    const std::string_view file = rest.substr(slash + 1);
    // static/... from the repository's console folder, vendor/... from the Debian packages.
    const std::string key = file.starts_with("vendor/") ? std::string(file)
                                                         : "static/" + std::string(file);
    if (key.starts_with("pages/") || key.find("..") != std::string::npos) return NotFound(path);
    auto it = files_.find(key);
    if (it == files_.end()) return NotFound(path);
    return ServeFile(request, it->second, key,
                     version == version_ ? std::string(kImmutable) : "no-cache");
  }
  std::string_view page = path.substr(std::string_view("/console/").size());
  if (!page.empty() && page.back() == '/') page.remove_suffix(1);
  if (page.empty()) page = "overview";
  if (!IsPageName(page)) return NotFound(path);
  auto it = files_.find("pages/" + std::string(page) + ".html");
  if (it == files_.end()) return NotFound(path);
  return ServeFile(request, it->second, it->first, "no-store");
}

http::HttpResponse ConsoleSite::ServeFile(const http::HttpRequest& request, const File& file,
                                          std::string_view path, std::string cache_control) const {
  http::HttpResponse r;
  r.content_type = std::string(ContentTypeFor(path));
  r.SetHeader("Cache-Control", std::move(cache_control));
  AddSecurityHeaders(r);
  if (r.FindHeader("Cache-Control")->find("no-store") == std::string::npos) {
    r.SetHeader("ETag", file.etag);
    const std::string* inm = request.Header("if-none-match");
    if (inm != nullptr && *inm == file.etag) {
      r.status = 304;
      return r;
    }
  }
  if (request.method != "HEAD") r.body = file.body;
  return r;
}

}  // namespace dq::gateway
