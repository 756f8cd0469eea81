// The URL facts of listing_text.h: an image URL's file type, the host, placeholder hosts and
// placeholder picture names.
#include <algorithm>
#include <initializer_list>

#include "listing_text.h"
#include "text.h"

namespace dq::validator::listing {
namespace {

bool IsWordByte(char c) { return text::IsAsciiAlpha(c) || text::IsDigit(c); }

// Where the URL's query or fragment starts ('?' or '#'), or url.size(). (string_view's
// find_first_of calls memchr once per byte of the URL.)
size_t QueryOrFragment(std::string_view url) {
  for (size_t i = 0; i < url.size(); ++i) {
    if (url[i] == '?' || url[i] == '#') return i;
  }
  return url.size();
}


}  // namespace

FileType FileTypeOf(std::string_view url) {
  std::string_view path = url.substr(0, QueryOrFragment(url));
  const size_t scheme = path.find("://");
  if (scheme != std::string_view::npos) {
    const size_t slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  const size_t last = path.rfind('/');
  return FileTypeOfSegment(last == std::string_view::npos ? path : path.substr(last + 1));
}

FileType FileTypeOfSegment(std::string_view segment) {
  const size_t dot = segment.rfind('.');
  FileType t;
  if (dot == std::string_view::npos) return t;
  const std::string_view ext = segment.substr(dot + 1);
  if (ext.size() < 2 || ext.size() > 5) return t;
  char low[5];
  for (size_t k = 0; k < ext.size(); ++k) {
    if (!IsWordByte(ext[k])) return t;
    low[k] = text::ToLower(ext[k]);
  }
  const std::string_view e(low, ext.size());
  t.extension = ext;
  auto any = [&](std::initializer_list<std::string_view> list) {
    for (std::string_view x : list) {
      if (e == x) return true;
    }
    return false;
  };
  if (any({"jpg", "jpeg", "png", "gif", "webp", "bmp", "tif", "tiff"})) {
    t.kind = FileKind::kImage;
  } else if (any({"svg", "avif", "heic", "heif", "ico", "jfif", "psd"})) {
    t.kind = FileKind::kOtherImage;
  } else if (any({"html", "htm", "xhtml", "shtml", "php", "pdf", "txt", "xml", "json"})) {
    t.kind = FileKind::kPage;
  } else if (any({"asp", "aspx", "ashx", "jsp", "cgi"})) {
    t.kind = FileKind::kScript;
  } else if (text::IsAllDigits(e)) {
    t = FileType{};  // "/v/1.2" or "/image.0": a version or a number, not a file type
  } else {
    t.kind = FileKind::kOther;
  }
  return t;
}

namespace {

// The host of an authority ("user@host:port").
std::string_view HostIn(std::string_view host) {
  // rfind is a byte loop, find a memchr: most hosts have no '@'.
  if (host.find('@') != std::string_view::npos) host.remove_prefix(host.rfind('@') + 1);
  if (!host.empty() && host.front() == '[') {
    const size_t close = host.find(']');
    return close == std::string_view::npos ? host : host.substr(0, close + 1);
  }
  if (const size_t colon = host.find(':'); colon != std::string_view::npos) {
    host = host.substr(0, colon);
  }
  return host;
}

}  // namespace

std::string_view HostOf(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const size_t begin = scheme + 3;
  size_t end = begin;
  while (end < url.size() && url[end] != '/' && url[end] != '?' && url[end] != '#') ++end;
  return HostIn(url.substr(begin, end - begin));
}

UrlParts SplitUrl(std::string_view url) {
  constexpr size_t npos = std::string_view::npos;
  const size_t n = url.size();
  const size_t scheme = url.find("://");
  const size_t from = scheme == npos ? npos : scheme + 3;  // where the authority starts
  // The query or fragment, the last '/' before it, and the first '/' of the path: found by
  // memchr (a byte loop costs several instructions a byte of the URL).
  const size_t query = std::min(std::min(url.find('?'), url.find('#')), n);
  const size_t last = url.substr(0, query).rfind('/');
  const size_t path = from >= query ? npos : url.substr(0, query).find('/', from);
  UrlParts parts;
  parts.segment = last == npos ? url.substr(0, query) : url.substr(last + 1, query - last - 1);
  // FileTypeOf's path starts at the first '/' after "://" (no such '/': no path at all).
  const bool scheme_in_path = scheme != npos && from <= query;
  parts.file = scheme_in_path && path == npos ? std::string_view() : parts.segment;
  if (scheme_in_path) {
    const size_t end = path == npos ? query : path;
    parts.host = HostIn(url.substr(from, end - from));
  } else if (scheme != npos) {
    parts.host = HostOf(url);  // "://" only in the query or fragment
  }
  return parts;
}

namespace {

bool EndsWithLabel(std::string_view host, std::string_view suffix) {
  if (host.size() < suffix.size()) return false;
  for (size_t k = 0; k < suffix.size(); ++k) {
    if (text::ToLower(host[host.size() - suffix.size() + k]) != suffix[k]) return false;
  }
  return host.size() == suffix.size() || host[host.size() - suffix.size() - 1] == '.';
}

// a.b.c.d with each part 0-255; the parts in *out.
bool ParseIpv4(std::string_view s, int out[4]) {
  int part = 0;
  size_t digits = 0;
  int value = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      if (digits == 0 || value > 255 || part > 3) return false;
      out[part++] = value;
      value = 0, digits = 0;
    } else if (text::IsDigit(s[i]) && digits < 3) {
      value = value * 10 + (s[i] - '0');
      ++digits;
    } else {
      return false;
    }
  }
  return part == 4;
}

}  // namespace

const char* PlaceholderHost(std::string_view url) { return PlaceholderHostName(HostOf(url)); }

const char* PlaceholderHostName(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  if (host.empty()) return nullptr;
  if (EndsWithLabel(host, "localhost")) return "localhost is not reachable from the channel";
  if (host == "[::1]") return "a loopback address is not reachable from the channel";
  int ip[4];
  if (ParseIpv4(host, ip)) {
    if (ip[0] == 127) return "a loopback address is not reachable from the channel";
    if (ip[0] == 10 || (ip[0] == 172 && ip[1] >= 16 && ip[1] <= 31) ||
        (ip[0] == 192 && ip[1] == 168) || ip[0] == 0) {
      return "a private network address is not reachable from the channel";
    }
    return nullptr;
  }
  for (std::string_view reserved :
       {"example.com", "example.net", "example.org", "example", "test", "invalid"}) {
    if (EndsWithLabel(host, reserved)) {
      return "the host is a name reserved for examples and tests (RFC 2606), not a live site";
    }
  }
  return nullptr;
}

bool PlaceholderImageName(std::string_view url) {
  const std::string_view path = url.substr(0, QueryOrFragment(url));
  const size_t last = path.rfind('/');
  return PlaceholderImageSegment(last == std::string_view::npos ? path : path.substr(last + 1));
}

bool PlaceholderImageSegment(std::string_view segment) {
  if (const size_t dot = segment.rfind('.'); dot != std::string_view::npos) {
    segment = segment.substr(0, dot);
  }
  // The shortest name below has 7 letters, and the separators only make a segment shorter.
  if (segment.size() < 7) return false;
  char buf[48];
  size_t n = 0;
  for (char c : segment) {
    if (c == '-' || c == '_' || c == ' ' || c == '+') continue;
    if (n == sizeof(buf)) return false;
    buf[n++] = text::ToLower(c);
  }
  const std::string_view name(buf, n);
  for (std::string_view p :
       {"placeholder", "noimage", "noimageavailable", "imagecomingsoon", "comingsoon",
        "imagenotavailable", "notavailable", "nophoto", "nopicture", "defaultimage",
        "imageplaceholder", "productplaceholder"}) {
    if (name == p) return true;
  }
  return false;
}

}  // namespace dq::validator::listing
