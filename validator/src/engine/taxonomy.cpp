#include "taxonomy.h"

#include <charconv>
#include <utility>

#include "text.h"

namespace dq::validator {
namespace {

constexpr std::string_view kVersionPrefix = "# Google_Product_Taxonomy_Version:";
// Longer than any path in the file (the longest has 214 characters): a value that long
// names no category and is not copied to be looked up.
constexpr size_t kMaxPath = 400;

std::optional<uint32_t> ParseId(std::string_view s) {
  if (s.empty() || s.size() > 9 || !text::IsAllDigits(s)) return std::nullopt;
  uint32_t id = 0;
  std::from_chars(s.data(), s.data() + s.size(), id);
  return id;
}

}  // namespace

// Lower-cased ASCII, one " > " between levels, no spaces at the ends: "a>B  > c" -> "a > b > c".
void GoogleTaxonomy::NormalizePath(std::string_view path, std::string* out_ptr) {
  std::string& out = *out_ptr;
  out.clear();
  size_t start = 0;
  while (start <= path.size()) {
    size_t gt = path.find('>', start);
    if (gt == std::string_view::npos) gt = path.size();
    const std::string_view level = text::Trim(path.substr(start, gt - start));
    if (!out.empty() || start > 0) out += " > ";
    for (char c : level) out.push_back(text::ToLower(c));
    start = gt + 1;
  }
}

GoogleTaxonomy::GoogleTaxonomy(std::string_view data) {
  size_t pos = 0;
  while (pos < data.size()) {
    size_t eol = data.find('\n', pos);
    if (eol == std::string_view::npos) eol = data.size();
    std::string_view line = data.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.substr(0, kVersionPrefix.size()) == kVersionPrefix) {
      version_ = std::string(text::Trim(line.substr(kVersionPrefix.size())));
      continue;
    }
    const size_t dash = line.find(" - ");
    if (dash == std::string_view::npos) continue;
    const auto id = ParseId(line.substr(0, dash));
    if (!id) continue;
    const std::string_view path = line.substr(dash + 3);
    uint32_t parent = 0;
    std::string key;
    if (const size_t gt = path.rfind('>'); gt != std::string_view::npos) {
      NormalizePath(path.substr(0, gt), &key);
      const auto it = by_path_.find(key);
      if (it != by_path_.end()) parent = it->second;
    }
    NormalizePath(path, &key);
    by_path_.emplace(std::move(key), *id);
    parent_.emplace(*id, parent);
  }
}

std::optional<uint32_t> GoogleTaxonomy::Find(std::string_view value) const {
  value = text::Trim(value);
  if (const auto id = ParseId(value)) {
    return parent_.count(*id) ? id : std::nullopt;
  }
  if (value.empty() || value.size() > kMaxPath) return std::nullopt;
  // One lookup buffer per thread: no allocation once it has grown.
  thread_local std::string key;
  NormalizePath(value, &key);
  const auto it = by_path_.find(key);
  if (it == by_path_.end()) return std::nullopt;
  return it->second;
}

bool GoogleTaxonomy::IsUnder(uint32_t id, uint32_t ancestor) const {
  for (int depth = 0; depth < 16 && id != 0; ++depth) {
    if (id == ancestor) return true;
    const auto it = parent_.find(id);
    if (it == parent_.end()) return false;
    id = it->second;
  }
  return false;
}

}  // namespace dq::validator
