// The row model: what each row of a file is (product, variant, parent or image row) and which
// item it names, decided row by row in file order from the source profile's rules
// (source_profile.h, RowRules). Streamed: it keeps only the current product's key and title (and,
// for sources whose variants name their parent, a bounded table of the parents seen).
//
//   RowModel model(*detection.profile, header, sku_column, title_column);
//   for (each row) {
//     RowKind kind = model.Next(row);
//     Use(kind, model.sku(), model.item_id(), model.title());   // valid until the next Next()
//     if (auto back = model.revised()) MakeProduct(row_index - *back);  // see pending()
//   }
//   if (auto back = model.End()) MakeProduct(last_row_index - *back);
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dq/ingest/source_profile.h"

namespace dq::ingest {

class RowModel {
 public:
  // sku_column / title_column: the indexes in `header` of the columns mapped to sku and title
  // (SIZE_MAX when unmapped); they name the item of each row.
  RowModel(const SourceProfile& profile, std::span<const std::string> header, size_t sku_column,
           size_t title_column);

  // The next row's kind. Rows must come in file order.
  RowKind Next(std::span<const std::string_view> row);

  // The last row's names: its own sku; the product it belongs to (the source's key, e.g.
  // Shopify's Handle, WooCommerce's parent ID; "" where the source has none); its title, or its
  // product's for a variant or image row that has none.
  std::string_view sku() const { return sku_view_; }
  std::string_view item_id() const { return item_view_; }
  std::string_view title() const { return title_view_; }

  // True when every row is a product whatever it holds (no kinds need to be sent).
  bool all_products() const { return all_products_; }

  // A groups-model parent (a first row that names options and gives none of their values,
  // parent_if_columns) is a parent only when a variant of its product follows it: Next()
  // answers kParent for it, and the row is pending until a variant row of its product (it stays
  // a parent), the next product or End() (it is the product after all: Shopify's row of a
  // product without variants, price, SKU and stock on that row). A pending row is given up (stays
  // a parent) after kMaxPending more rows of its product without a variant (image rows).
  // pending(): a row given so far may still change kind. revised(), after Next(): the row that
  // turned out a product, as rows before the current one (1 = the row just before), if any.
  // End(), after the last row: the same for a row still pending (0 = the last row itself).
  bool pending() const { return pending_; }
  std::optional<size_t> revised() const { return revised_; }
  std::optional<size_t> End();
  static constexpr size_t kMaxPending = 1000;

  // The most parents remembered for variants that name theirs (WooCommerce's Parent).
  static constexpr size_t kMaxParents = 20000;

 private:
  static std::string_view Cell(std::span<const std::string_view> row, size_t c) {
    return c < row.size() ? row[c] : std::string_view();
  }
  RowKind Groups(std::span<const std::string_view> row);
  static bool FillsAny(std::span<const std::string_view> row, std::span<const size_t> columns);
  RowKind Type(std::span<const std::string_view> row);

  const RowRules& rules_;
  size_t sku_col_ = SIZE_MAX;
  size_t title_col_ = SIZE_MAX;
  std::vector<size_t> item_cols_;
  size_t key_col_ = SIZE_MAX;
  size_t key_if_empty_col_ = SIZE_MAX;  // RowRules::key_if_empty
  std::vector<size_t> variant_cols_;
  std::vector<size_t> parent_if_cols_;
  std::vector<size_t> new_item_cols_;
  size_t type_col_ = SIZE_MAX;
  // Every type column the header has, in the profile's order: a row's kind comes from the first
  // one it fills (WordPress's XML: product_type for products, wp:post_type for the others).
  std::vector<size_t> type_cols_;
  size_t parent_col_ = SIZE_MAX;
  size_t variant_if_col_ = SIZE_MAX;
  std::vector<size_t> scope_cols_;
  RowKind flat_kind_ = RowKind::kProduct;
  bool all_products_ = true;

  // The current product (groups; type with variants_follow): its key, item id and title.
  bool have_product_ = false;
  bool pending_ = false;      // the current product's first row is a parent without variants yet
  size_t pending_back_ = 0;   // how many rows before the current one that row is
  std::optional<size_t> revised_;
  std::string product_key_;
  bool product_key_if_empty_ = false;  // product_key_ came from key_if_empty's column
  std::string product_item_;
  std::string product_title_;
  // Parents seen, by their item id and their sku: (item id, title).
  std::unordered_map<std::string, std::pair<std::string, std::string>> parents_;

  std::string word_;    // the type cell's first word, lower case
  std::string lookup_;  // a parent reference, to look it up
  std::string_view sku_view_;
  std::string_view item_view_;
  std::string_view title_view_;
};

}  // namespace dq::ingest
