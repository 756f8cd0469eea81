// Reading the console's files from disk, once, when the gateway starts.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "console/console_site.h"

namespace dq::gateway {
namespace {

namespace fs = std::filesystem;

// The vendor files the pages load, relative to the Debian packages' /usr/share/javascript, and
// the name they are served under (static/<version>/vendor/...).
constexpr std::string_view kVendorFiles[] = {
    "bootstrap5/css/bootstrap.min.css",
    "chart.js/chart.esm.js",
    "chart.js/chunks/helpers.segment.js",
};

Result<std::string> ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Status(ErrorCode::kInternal, "cannot read console file " + p.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Status ReadTree(const fs::path& root, const std::string& prefix,
                std::map<std::string, std::string>* files) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return Status(ErrorCode::kInternal, "console folder " + root.string() + " is missing");
  }
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    auto body = ReadFile(it->path());
    if (!body.ok()) return body.status();
    (*files)[prefix + fs::relative(it->path(), root).generic_string()] = std::move(*body);
  }
  if (ec) return Status(ErrorCode::kInternal, "cannot list " + root.string() + ": " + ec.message());
  return Status::Ok();
}

}  // namespace

Result<ConsoleSite> LoadConsoleSite(const std::string& console_dir,
                                    const std::string& vendor_dir) {
  std::map<std::string, std::string> files;
  const fs::path root(console_dir);
  if (Status s = ReadTree(root / "pages", "pages/", &files); !s.ok()) return s;
  if (Status s = ReadTree(root / "static", "static/", &files); !s.ok()) return s;
  for (std::string_view v : kVendorFiles) {
    auto body = ReadFile(fs::path(vendor_dir) / v);
    if (!body.ok()) {
      return Status(ErrorCode::kInternal, "console vendor file " + (fs::path(vendor_dir) / v).string() +
                                              " is missing (Debian packages libjs-bootstrap5 "
                                              "and libjs-chart.js)");
    }
    files["vendor/" + std::string(v)] = std::move(*body);
  }
  return ConsoleSite(std::move(files));
}

}  // namespace dq::gateway
