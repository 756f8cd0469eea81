// Google's product taxonomy (the values of google_product_category), parsed from Google's
// published file taxonomy-with-ids.en-US.txt. The repository does not ship the file: a build
// embeds it when scripts/update-taxonomy.sh has put it in validator/data/ (validator/data/README.md),
// and ReferenceData carries it. Without it the taxonomy is empty() and the rules that need it
// stand aside. Pure lookups; read-only and thread-safe once built.
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

  // True when no category is known (no file was shipped): nothing can be judged unknown.
  bool empty() const { return parent_.empty(); }
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
