// The web console's static files: pages and assets, held in memory and served under /console/.
//
// URLs:
//   /console/                      the overview page (pages/overview.html)
//   /console/<page>                pages/<page>.html (login, signup, jobs, job, ...)
//   /console/static/<version>/<p>  an asset: static/<p> from the console folder, or vendor/<p>
//                                  from the Debian libjs-* files (Bootstrap, Chart.js)
// <version> is a hash of every asset's bytes, so an asset URL names one content: assets are
// cached for a year as immutable. Pages are never cached (no-store): they hold no private data,
// but the back button after logging out must ask the server again. In the page files, asset URLs
// are written /console/static/_/...; "_" becomes the version when the site is built. An asset
// asked for under another version (an old page during a rolling update) is served as it is now,
// with no-cache.
//
// Every answer carries a Content-Security-Policy that allows scripts and styles only from this
// origin's files: no inline script, no inline style, no eval, nothing from elsewhere.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "dq/common/status.h"
#include "dq/http/http_types.h"

namespace dq::gateway {

// The policy sent with every console answer.
extern const char kConsoleContentSecurityPolicy[];

// "text/css; charset=utf-8" for "x.css", ...; application/octet-stream when unknown.
std::string_view ContentTypeFor(std::string_view path);

class ConsoleSite {
 public:
  // files: path relative to the site ("pages/overview.html", "static/js/api.js",
  // "vendor/bootstrap5/css/bootstrap.min.css") -> bytes.
  explicit ConsoleSite(std::map<std::string, std::string> files);

  // Whether the path belongs to the console's static side (/console, /console/..., but not the
  // JSON API under /console/api/).
  static bool Owns(std::string_view path);

  // The answer for a request the site owns: 200, 304, 301 (/console -> /console/), 404 or 405.
  http::HttpResponse Serve(const http::HttpRequest& request) const;

  const std::string& version() const { return version_; }

 private:
  struct File {
    std::string body;
    std::string etag;
  };
  http::HttpResponse ServeFile(const http::HttpRequest& request, const File& file,
                               std::string_view path, std::string cache_control) const;

  std::map<std::string, File, std::less<>> files_;
  std::string version_;
};

// Reads the site from disk: every file under <console_dir>/pages and <console_dir>/static, and
// the vendor files the pages use from <vendor_dir> (Debian's /usr/share/javascript). A missing
// folder or vendor file is an error naming it.
Result<ConsoleSite> LoadConsoleSite(const std::string& console_dir, const std::string& vendor_dir);

}  // namespace dq::gateway
