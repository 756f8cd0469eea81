// Google's product taxonomy (the values of google_product_category), from the published file
// taxonomy-with-ids.en-US.txt vendored in validator/data/ and embedded at build time
// (validator/data/README.md says where it comes from and how scripts/update-taxonomy.sh
// refreshes it). Pure lookups; built once per process, then read-only and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dq::validator {

class GoogleTaxonomy {
 public:
  // Well-known categories the rules name.
  static constexpr uint32_t kApparelAndAccessories = 166;
  static constexpr uint32_t kClothing = 1604;
  static constexpr uint32_t kShoes = 187;

  // The process-wide instance, from the embedded file, built on first use.
  static const GoogleTaxonomy& Default();
  // Parses the file's text: a first line "# Google_Product_Taxonomy_Version: <version>", then one
  // "<id> - <Top> > <Sub> > ..." per line. Lines of another shape are skipped; a category whose
  // parent path is not listed before it has no parent.
  explicit GoogleTaxonomy(std::string_view text);

  // The category a google_product_category value names: its numeric id ("1604"), or its full
  // path ("Apparel & Accessories > Clothing"), compared ASCII case-insensitively and with any
  // spacing around '>'. nullopt when it names none.
  std::optional<uint32_t> Find(std::string_view value) const;
  // True when category `id` is `ancestor` or lies under it.
  bool IsUnder(uint32_t id, uint32_t ancestor) const;

  const std::string& version() const { return version_; }
  size_t size() const { return parent_.size(); }

 private:
  // path (normalised) -> id; id -> parent id (0 for a top-level category).
  static void NormalizePath(std::string_view path, std::string* out);
  std::string version_;
  std::unordered_map<std::string, uint32_t> by_path_;
  std::unordered_map<uint32_t, uint32_t> parent_;
};

}  // namespace dq::validator
