#include "console/console_site.h"

#include <gtest/gtest.h>

namespace dq::gateway {
namespace {

ConsoleSite Site() {
  return ConsoleSite({
      {"pages/overview.html",
       "<link href=\"/console/static/_/css/console.css\"><script type=module "
       "src=\"/console/static/_/js/overview.js\"></script>"},
      {"pages/login.html", "<h1>Log in</h1>"},
      {"static/css/console.css", "body{}"},
      {"static/js/overview.js", "import './api.js';"},
      {"vendor/chart.js/chart.esm.js", "export const Chart = 1;"},
  });
}

http::HttpRequest Get(std::string path) {
  http::HttpRequest r;
  r.method = "GET";
  r.path = std::move(path);
  return r;
}

std::string Header(const http::HttpResponse& r, std::string_view name) {
  const std::string* v = r.FindHeader(name);
  return v == nullptr ? "" : *v;
}

TEST(ConsoleSiteTest, OwnsConsolePathsButNotItsApi) {
  EXPECT_TRUE(ConsoleSite::Owns("/console"));
  EXPECT_TRUE(ConsoleSite::Owns("/console/"));
  EXPECT_TRUE(ConsoleSite::Owns("/console/jobs"));
  EXPECT_FALSE(ConsoleSite::Owns("/console/api/me"));
  EXPECT_FALSE(ConsoleSite::Owns("/console/api"));
  EXPECT_FALSE(ConsoleSite::Owns("/consoles"));
  EXPECT_FALSE(ConsoleSite::Owns("/v1/jobs"));
}

TEST(ConsoleSiteTest, PagesAreHtmlNeverCachedWithVersionedAssetUrls) {
  ConsoleSite site = Site();
  http::HttpResponse r = site.Serve(Get("/console/"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(Header(r, "Cache-Control"), "no-store");
  EXPECT_EQ(site.version().size(), 12u);
  EXPECT_NE(r.body.find("/console/static/" + site.version() + "/css/console.css"),
            std::string::npos);
  EXPECT_EQ(r.body.find("/static/_/"), std::string::npos);
  EXPECT_EQ(site.Serve(Get("/console/login")).body, "<h1>Log in</h1>");
  EXPECT_EQ(site.Serve(Get("/console/login/")).status, 200);
}

TEST(ConsoleSiteTest, EveryAnswerForbidsInlineScriptAndStyle) {
  ConsoleSite site = Site();
  for (const char* path : {"/console/", "/console/static/x/css/console.css", "/console/nope"}) {
    const std::string csp = Header(site.Serve(Get(path)), "Content-Security-Policy");
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << path;
    EXPECT_NE(csp.find("style-src 'self'"), std::string::npos) << path;
    EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << path;
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << path;
  }
}

TEST(ConsoleSiteTest, AssetsUnderTheCurrentVersionAreImmutable) {
  ConsoleSite site = Site();
  const std::string base = "/console/static/" + site.version();
  http::HttpResponse css = site.Serve(Get(base + "/css/console.css"));
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.content_type, "text/css; charset=utf-8");
  EXPECT_EQ(Header(css, "Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(css.body, "body{}");
  http::HttpResponse js = site.Serve(Get(base + "/js/overview.js"));
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  http::HttpResponse vendor = site.Serve(Get(base + "/vendor/chart.js/chart.esm.js"));
  EXPECT_EQ(vendor.status, 200);
  EXPECT_EQ(vendor.body, "export const Chart = 1;");
  // Another version (a page from before an update) gets today's file, revalidated each time.
  http::HttpResponse old = site.Serve(Get("/console/static/0123456789ab/css/console.css"));
  EXPECT_EQ(old.status, 200);
  EXPECT_EQ(Header(old, "Cache-Control"), "no-cache");
}

TEST(ConsoleSiteTest, TheVersionChangesWithAnyAssetButNotWithPages) {
  ConsoleSite a({{"static/a.js", "1"}, {"pages/p.html", "x"}});
  ConsoleSite b({{"static/a.js", "2"}, {"pages/p.html", "x"}});
  ConsoleSite c({{"static/a.js", "1"}, {"pages/p.html", "y"}});
  EXPECT_NE(a.version(), b.version());
  EXPECT_EQ(a.version(), c.version());
}

TEST(ConsoleSiteTest, EtagGivesNotModified) {
  ConsoleSite site = Site();
  http::HttpRequest req = Get("/console/static/" + site.version() + "/css/console.css");
  const std::string etag = Header(site.Serve(req), "ETag");
  ASSERT_FALSE(etag.empty());
  req.headers["if-none-match"] = etag;
  http::HttpResponse r = site.Serve(req);
  EXPECT_EQ(r.status, 304);
  EXPECT_TRUE(r.body.empty());
}

TEST(ConsoleSiteTest, UnknownOrEscapingPathsAreJson404) {
  ConsoleSite site = Site();
  for (const char* path :
       {"/console/nope", "/console/static/x/../pages/login.html", "/console/static/x/pages/login.html",
        "/console/static/x", "/console/Login", "/console/static/x/js/missing.js",
        "/console/../v1/jobs"}) {
    http::HttpResponse r = site.Serve(Get(path));
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.content_type, "application/json") << path;
    EXPECT_NE(r.body.find("\"not_found\""), std::string::npos) << path;
  }
}

TEST(ConsoleSiteTest, BareConsoleRedirectsAndWritesAreRefused) {
  ConsoleSite site = Site();
  http::HttpResponse r = site.Serve(Get("/console"));
  EXPECT_EQ(r.status, 301);
  EXPECT_EQ(Header(r, "Location"), "/console/");
  http::HttpRequest post = Get("/console/");
  post.method = "POST";
  http::HttpResponse p = site.Serve(post);
  EXPECT_EQ(p.status, 405);
  EXPECT_EQ(Header(p, "Allow"), "GET, HEAD");
}

TEST(ConsoleSiteTest, ContentTypes) {
  EXPECT_EQ(ContentTypeFor("a/b.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("x.mjs"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("x.bin"), "application/octet-stream");
}

}  // namespace
}  // namespace dq::gateway
