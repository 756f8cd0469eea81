#include "dq/ingest/row_model.h"

#include <algorithm>

#include "dq/common/ascii.h"

namespace dq::ingest {
namespace {

// The first word of a type cell, lower case: "simple" for "simple, downloadable, virtual".
std::string_view FirstWord(std::string_view cell, std::string& buf) {
  cell = ascii::Trim(cell);
  cell = cell.substr(0, cell.find_first_of(", ;|"));
  buf.assign(cell);
  for (char& c : buf) c = absl::ascii_tolower(static_cast<unsigned char>(c));
  return buf;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return ascii::EqualsIgnoreCase(ascii::Trim(a), b);
}

}  // namespace

RowModel::RowModel(const SourceProfile& profile, std::span<const std::string> header,
                   size_t sku_column, size_t title_column)
    : rules_(profile.rows), sku_col_(sku_column), title_col_(title_column) {
  for (const std::string& name : rules_.item_id) {
    const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
    if (c != SIZE_MAX) item_cols_.push_back(c);
  }
  switch (rules_.model) {
    case RowModelKind::kFlat:
      flat_kind_ = rules_.kind;
      for (const auto& [columns, kind] : rules_.kind_if_columns) {
        if (FindColumn(header, columns) != SIZE_MAX) {
          flat_kind_ = kind;
          break;
        }
      }
      all_products_ = flat_kind_ == RowKind::kProduct;
      break;
    case RowModelKind::kGroups:
      flat_kind_ = rules_.kind;  // when the header does not ask for groups (groups_if_columns)
      if (!rules_.groups_if_columns.empty() &&
          FindColumn(header, rules_.groups_if_columns) == SIZE_MAX) {
        all_products_ = flat_kind_ == RowKind::kProduct;
        break;
      }
      key_col_ = FindColumn(header, rules_.key);
      key_if_empty_col_ = FindColumn(header, rules_.key_if_empty);
      for (const std::string& name : rules_.variant_columns) {
        const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
        if (c != SIZE_MAX) variant_cols_.push_back(c);
      }
      for (const std::string& name : rules_.parent_if_columns) {
        const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
        if (c != SIZE_MAX) parent_if_cols_.push_back(c);
      }
      for (const std::string& name : rules_.new_item_if_columns) {
        const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
        if (c != SIZE_MAX) new_item_cols_.push_back(c);
      }
      all_products_ = key_col_ == SIZE_MAX;  // no key: nothing groups the rows
      break;
    case RowModelKind::kType:
      type_col_ = FindColumn(header, rules_.type_column);
      for (const std::string& name : rules_.type_column) {
        const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
        if (c != SIZE_MAX &&
            std::find(type_cols_.begin(), type_cols_.end(), c) == type_cols_.end()) {
          type_cols_.push_back(c);
        }
      }
      parent_col_ = FindColumn(header, rules_.parent_column);
      variant_if_col_ = FindColumn(header, rules_.variant_if_columns);
      for (const std::string& name : rules_.scope_columns) {
        const size_t c = FindColumn(header, std::span<const std::string>(&name, 1));
        if (c != SIZE_MAX) scope_cols_.push_back(c);
      }
      all_products_ = type_col_ == SIZE_MAX;
      break;
  }
}

RowKind RowModel::Next(std::span<const std::string_view> row) {
  revised_.reset();
  if (pending_ && ++pending_back_ > kMaxPending) pending_ = false;  // stays a parent
  sku_view_ = Cell(row, sku_col_);
  title_view_ = Cell(row, title_col_);
  item_view_ = {};
  for (size_t c : item_cols_) {
    item_view_ = ascii::Trim(Cell(row, c));
    if (!item_view_.empty()) break;
  }
  if (rules_.model == RowModelKind::kGroups && key_col_ != SIZE_MAX) return Groups(row);
  if (rules_.model == RowModelKind::kType && type_col_ != SIZE_MAX) return Type(row);
  return flat_kind_;
}

RowKind RowModel::Groups(std::span<const std::string_view> row) {
  std::string_view key = ascii::Trim(Cell(row, key_col_));
  const bool if_empty = key.empty() && !ascii::Trim(Cell(row, key_if_empty_col_)).empty();
  if (if_empty) key = ascii::Trim(Cell(row, key_if_empty_col_));
  item_view_ = key;
  if (!have_product_ || key.empty() || key != product_key_ ||
      if_empty != product_key_if_empty_ || FillsAny(row, new_item_cols_)) {
    if (pending_) revised_ = pending_back_;  // the product before had no variant
    have_product_ = !key.empty();
    product_key_.assign(key);
    product_key_if_empty_ = if_empty;
    product_title_.assign(ascii::Trim(title_view_));
    pending_ = FillsAny(row, parent_if_cols_) && !FillsAny(row, variant_cols_);
    pending_back_ = 0;
    return pending_ ? RowKind::kParent : RowKind::kProduct;
  }
  if (ascii::Trim(title_view_).empty()) title_view_ = product_title_;
  if (!FillsAny(row, variant_cols_)) return RowKind::kImage;
  pending_ = false;  // a variant: its product's first row is the parent
  return RowKind::kVariant;
}

std::optional<size_t> RowModel::End() {
  if (!pending_) return std::nullopt;
  pending_ = false;
  return pending_back_;
}

bool RowModel::FillsAny(std::span<const std::string_view> row, std::span<const size_t> columns) {
  for (size_t c : columns) {
    if (!ascii::Trim(Cell(row, c)).empty()) return true;
  }
  return false;
}

RowKind RowModel::Type(std::span<const std::string_view> row) {
  if (FillsAny(row, scope_cols_)) return RowKind::kImage;  // a scope row of its item
  std::string_view cell = Cell(row, type_col_);
  for (size_t i = 1; i < type_cols_.size() && ascii::Trim(cell).empty(); ++i) {
    cell = Cell(row, type_cols_[i]);
  }
  const std::string_view word = FirstWord(cell, word_);
  RowKind kind = word.empty() && rules_.has_empty_kind ? rules_.empty_kind : rules_.default_kind;
  for (const auto& [name, k] : rules_.types) {
    if (word == name) {
      kind = k;
      break;
    }
  }
  if (kind == RowKind::kProduct && variant_if_col_ != SIZE_MAX) {
    for (const std::string& v : rules_.variant_if_values) {
      if (EqualsIgnoringCase(Cell(row, variant_if_col_), v)) kind = RowKind::kVariant;
    }
  }
  const std::string_view own_title = ascii::Trim(title_view_);
  if (kind == RowKind::kProduct || kind == RowKind::kParent) {
    have_product_ = true;
    product_item_.assign(item_view_);
    product_title_.assign(own_title);
    if (kind == RowKind::kParent && parent_col_ != SIZE_MAX && parents_.size() < kMaxParents) {
      if (!item_view_.empty()) parents_[std::string(item_view_)] = {product_item_, product_title_};
      const std::string_view sku = ascii::Trim(sku_view_);
      if (!sku.empty()) parents_[std::string(sku)] = {product_item_, product_title_};
    }
    return kind;
  }
  // A variant or an extra row: whose is it?
  std::string_view parent_title;
  std::string_view ref = ascii::Trim(Cell(row, parent_col_));
  if (!ref.empty()) {
    if (!rules_.strip_prefix.empty() && ref.size() > rules_.strip_prefix.size() &&
        EqualsIgnoringCase(ref.substr(0, rules_.strip_prefix.size()), rules_.strip_prefix)) {
      ref.remove_prefix(rules_.strip_prefix.size());
    }
    lookup_.assign(ref);
    auto it = parents_.find(lookup_);
    if (it != parents_.end()) {
      item_view_ = it->second.first;
      parent_title = it->second.second;
    } else {
      item_view_ = ref;
    }
  } else if (rules_.variants_follow && have_product_) {
    item_view_ = product_item_;
    parent_title = product_title_;
  } else {
    item_view_ = {};  // its parent is not named before it (Magento lists children first)
  }
  if (own_title.empty()) title_view_ = parent_title;
  return kind;
}

}  // namespace dq::ingest
