#include "dq/ingest/check_plan.h"

#include <algorithm>
#include <array>
#include <string>

#include "dq/common/vocabulary.h"
#include "dq/ingest/mapping_inference.h"

namespace dq::ingest {
namespace {

constexpr std::array<std::string_view, 10> kProductFields = {
    "sku", "title", "description", "price", "currency", "availability", "image_url", "brand",
    "category", "gtin"};
constexpr std::array<std::string_view, 3> kCustomerFields = {"email", "phone", "country"};
constexpr std::array<std::string_view, 5> kShippingFields = {
    "weight", "hs_code", "country_of_origin", "vat_number", "declared_value"};
constexpr std::array<std::string_view, 5> kInventoryFields = {
    "sku", "stock_qty", "reorder_point", "expiry_date", "warehouse_id"};
constexpr std::array<std::string_view, 5> kPriceFields = {
    "sku", "price", "compare_at_price", "cost_price", "currency"};

constexpr std::array<std::string_view, 3> kProductCore = {"sku", "title", "price"};
constexpr std::array<std::string_view, 1> kCustomerCore = {"email"};
constexpr std::array<std::string_view, 2> kInventoryCore = {"sku", "stock_qty"};
constexpr std::array<std::string_view, 1> kPriceCore = {"price"};

// "a price", "prices": how a note names a core field.
struct Words {
  std::string_view field, one, many;
};
constexpr Words kWords[] = {
    {"sku", "a SKU", "SKUs"},
    {"title", "a title", "titles"},
    {"price", "a price", "prices"},
    {"email", "an email address", "email addresses"},
    {"stock_qty", "a stock quantity", "stock quantities"},
};

const std::string* Mapped(const Mapping& mapping, std::string_view field) {
  for (const auto& [f, column] : mapping) {
    if (f == field) return &column;
  }
  return nullptr;
}

bool AnyMapped(const Mapping& mapping, std::span<const std::string_view> fields) {
  for (std::string_view f : fields) {
    if (Mapped(mapping, f)) return true;
  }
  return false;
}

bool SameColumn(std::string_view a, std::string_view b) {
  return NormalizeColumnName(a) == NormalizeColumnName(b);
}

bool Covers(const std::vector<std::string>& columns, std::string_view column) {
  if (columns.empty()) return true;
  for (const auto& c : columns) {
    if (SameColumn(c, column)) return true;
  }
  return false;
}

std::string_view UnitWord(std::string_view unit) {
  if (unit == "g") return "grams";
  if (unit == "kg") return "kilograms";
  if (unit == "lb") return "pounds";
  if (unit == "oz") return "ounces";
  return unit;
}

// The weight column's unit and the sentence that says why. With a weight_unit column, the unit
// of the rows that leave it empty.
std::pair<std::string, std::string> WeightUnit(const CheckPlanInput& in,
                                               const std::string& column, bool row_units) {
  const std::string quoted =
      (row_units ? "Where a row gives no unit, the weight column '" : "The weight column '") +
      column + "' ";
  if (!in.caller_weight_unit.empty()) {
    return {in.caller_weight_unit, quoted + "is read in " +
                                       std::string(UnitWord(in.caller_weight_unit)) +
                                       ": the request said so (weight_unit)."};
  }
  if (const std::string unit = WeightUnitOfColumn(column); !unit.empty()) {
    return {unit, quoted + "is read in " + std::string(UnitWord(unit)) +
                      ": its header names the unit."};
  }
  if (in.profile != nullptr) {
    for (const SourceWeightRule& rule : in.profile->weight) {
      if (!Covers(rule.columns, column)) continue;
      if (rule.unit == "unknown") {
        return {"unknown", quoted + "has no known unit: " + rule.why +
                               ". Bare weights were checked only as non-negative numbers; send "
                               "weight_unit to have them checked as weights."};
      }
      return {rule.unit, quoted + "is read in " + std::string(UnitWord(rule.unit)) + ": " +
                             rule.why + "."};
    }
  }
  if (in.grams_when_unsaid) {
    return {"", quoted + "is read in grams: its header names no unit, and the standard weight "
                         "field is in grams."};
  }
  if (!in.weight_unit_example.empty()) {
    return {"unknown", quoted + "names no unit in its header, but its values name their own "
                                "(such as '" + in.weight_unit_example + "'): each was read in "
                                "the unit it names. A bare number would be checked only as a "
                                "non-negative number; send weight_unit to give one."};
  }
  return {"unknown", quoted + "has no known unit: its header names none and the file's platform "
                              "does not fix one. Bare weights were checked only as "
                              "non-negative numbers; send weight_unit to have them checked as "
                              "weights."};
}

// A URL field whose cells list several URLs (value_evidence.h) gets the inferred separator,
// unless the profile's convention for its column already has one: each URL is checked on its
// own, and the plan says so once.
void AddInferredLists(const CheckPlanInput& in, CheckPlan& plan) {
  if (in.list_separators == nullptr) return;
  for (const auto& pair : *in.list_separators) {
    // Not a structured binding: a lambda may not capture one before clang 16 (the fuzz build).
    const std::string& field = pair.first;
    const std::string& sep = pair.second;
    const std::string* column = Mapped(*in.mapping, field);
    if (column == nullptr) continue;
    auto it = std::find_if(plan.conventions.begin(), plan.conventions.end(),
                           [&](const SourceConvention& c) { return c.field == field; });
    if (it != plan.conventions.end() && !it->list_separator.empty()) continue;
    if (it == plan.conventions.end()) {
      SourceConvention c;
      c.field = field;
      c.columns = {*column};
      it = plan.conventions.insert(plan.conventions.end(), std::move(c));
    }
    it->list_separator = sep;
    plan.notes.push_back("The column '" + *column + "' lists several URLs in a cell, separated by " +
                         (sep == " " ? std::string("spaces") : "'" + sep + "'") +
                         ": each URL was checked on its own.");
  }
}

// "17 rows have Variant Grams 0, which a Shopify products export writes when no weight was
// entered; they were read as having no weight." Joined to the weight column's note when the
// field is the weight (it is about the same column), else a note of its own.
void AddZeroNote(const CheckPlanInput& in, const ZeroRows& z, CheckPlan& plan) {
  if (z.rows == 0) return;
  std::string what = z.field;
  std::replace(what.begin(), what.end(), '_', ' ');
  const std::string source = in.profile != nullptr ? in.profile->name : "the file's platform";
  std::string note = std::to_string(z.rows) + (z.rows == 1 ? " row has " : " rows have ") +
                     z.column + " 0, which a " + source + " writes when no " + what +
                     " was entered; " + (z.rows == 1 ? "it was" : "they were") +
                     " read as having no " + what + ".";
  if (z.field == "weight") {
    for (std::string& n : plan.notes) {
      if (n.find("weight column '" + z.column + "'") == std::string::npos) continue;
      n += " " + note;
      return;
    }
  }
  plan.notes.push_back(std::move(note));
}

}  // namespace

std::span<const std::string_view> CheckTypeFields(std::string_view t) {
  if (t == "product") return kProductFields;
  if (t == "customer") return kCustomerFields;
  if (t == "shipping") return kShippingFields;
  if (t == "inventory") return kInventoryFields;
  if (t == "price") return kPriceFields;
  return {};
}

std::span<const std::string_view> CoreFields(std::string_view t) {
  if (t == "product") return kProductCore;
  if (t == "customer") return kCustomerCore;
  if (t == "inventory") return kInventoryCore;
  if (t == "price") return kPriceCore;
  return {};
}

bool IsCoreField(std::string_view field) {
  return field == "sku" || field == "title" || field == "price" || field == "email" ||
         field == "stock_qty";
}

CheckPlan PlanChecks(const CheckPlanInput& in) {
  CheckPlan plan;
  const Mapping& mapping = *in.mapping;
  // Core fields without a column, each once, in the order the check types name them.
  std::vector<std::string_view> missing;
  for (const std::string& t : in.check_types) {
    for (std::string_view f : CoreFields(t)) {
      if (!Mapped(mapping, f) && std::find(missing.begin(), missing.end(), f) == missing.end()) {
        missing.push_back(f);
      }
    }
  }
  for (std::string_view f : missing) {
    const std::string* empty = in.empty_columns ? Mapped(*in.empty_columns, f) : nullptr;
    for (const Words& w : kWords) {
      if (w.field != f) continue;
      plan.notes.push_back(empty != nullptr
                               ? "The column '" + *empty + "' is empty in every row; " +
                                     std::string(w.many) + " were not checked."
                               : "No column looks like " + std::string(w.one) + "; " +
                                     std::string(w.many) + " were not checked.");
    }
  }
  if (const std::string* column = Mapped(mapping, "weight")) {
    const std::string* unit_column = Mapped(mapping, "weight_unit");
    auto [unit, note] = WeightUnit(in, *column, unit_column != nullptr);
    plan.weight_unit = unit;
    if (unit_column != nullptr) {  // the row's own unit comes first (BatchSpec.weight_unit)
      note = "The weight column '" + *column + "' is read in the unit each row gives in '" +
             *unit_column + "' (g, kg, lb or oz, or a spelling such as lbs or grams). " + note;
    }
    plan.notes.push_back(std::move(note));
  }
  if (in.profile != nullptr) {
    for (const auto& [field, column] : mapping) {
      const SourceConvention* c = ConventionFor(*in.profile, field, column);
      if (c == nullptr) continue;
      // A structured binding is not captured by a lambda before clang 16 (the fuzz build).
      const std::string_view name = field;
      if (std::any_of(plan.conventions.begin(), plan.conventions.end(),
                      [&](const SourceConvention& d) { return d.field == name; })) {
        continue;  // one per field
      }
      SourceConvention out = *c;
      out.columns = {column};
      plan.conventions.push_back(std::move(out));
    }
  }
  AddInferredLists(in, plan);
  for (const ZeroRows& z : in.zero_rows) AddZeroNote(in, z, plan);
  return plan;
}

const SourceConvention* ConventionFor(const SourceProfile& profile, std::string_view field,
                                      std::string_view column) {
  for (const SourceConvention& c : profile.conventions) {
    if (c.field == field && Covers(c.columns, column)) return &c;
  }
  return nullptr;
}

std::vector<AlsoCheckedColumn> AlsoCheckedColumns(const SourceProfile& profile,
                                                  std::span<const std::string> header,
                                                  const Mapping& mapping) {
  std::vector<AlsoCheckedColumn> out;
  for (const std::string& column : header) {
    // Each column as the header spells it: the senders find a column's cells by its exact name,
    // so small_image and "Small Image" are two columns, each checked and named in its issues. A
    // name the header repeats exactly is one column (the validator takes each name once; the
    // senders send its last copy's cell, as for a mapped column named twice).
    const bool mapped = std::any_of(mapping.begin(), mapping.end(),
                                    [&](const auto& m) { return m.second == column; });
    const bool listed = std::any_of(out.begin(), out.end(),
                                    [&](const AlsoCheckedColumn& a) { return a.column == column; });
    if (mapped || listed) continue;
    for (const SourceAlsoChecked& also : profile.also_checked) {
      if (!Covers(also.columns, column)) continue;
      out.push_back({also.field, column, ConventionFor(profile, also.field, column)});
      break;
    }
  }
  return out;
}

void GtinPaddingEvidence::Add(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.empty()) return;
  ++filled_;
  if (value.size() > 14) return;
  for (char c : value) {
    if (c < '0' || c > '9') return;
  }
  size_t padded = 0;
  for (size_t n : {size_t{8}, size_t{12}, size_t{13}, size_t{14}}) {
    if (n >= value.size()) {
      padded = n;
      break;
    }
  }
  char buf[14];
  const size_t zeros = padded - value.size();
  std::fill(buf, buf + zeros, '0');
  std::copy(value.begin(), value.end(), buf + zeros);
  const bool ok = HasGs1CheckDigit(std::string_view(buf, padded));
  if (ok) ++valid_;
  if (zeros > 0) {
    ++short_;
    if (ok) ++short_valid_;
  }
}

std::vector<std::string> FittingCheckTypes(const Mapping& mapping) {
  std::vector<std::string> out;
  for (std::string_view t : kCheckTypes) {
    if (AnyMapped(mapping, CheckTypeFields(t))) out.emplace_back(t);
  }
  return out;
}

std::vector<std::string> SuggestCheckTypes(const Mapping& mapping) {
  std::vector<std::string> out;
  auto has = [&](std::string_view f) { return Mapped(mapping, f) != nullptr; };
  if (has("sku") || has("title") || has("price")) out.emplace_back("product");
  if (has("email") || has("phone")) out.emplace_back("customer");
  if (has("hs_code") || has("country_of_origin") || has("vat_number") || has("declared_value")) {
    out.emplace_back("shipping");
  }
  if (has("stock_qty")) out.emplace_back("inventory");
  if (has("price") && (has("compare_at_price") || has("cost_price"))) out.emplace_back("price");
  return out;
}

std::optional<std::string> CheckTypesMisfit(std::span<const std::string> check_types,
                                            const Mapping& mapping) {
  std::string message;
  for (const std::string& t : check_types) {
    if (AnyMapped(mapping, CheckTypeFields(t))) continue;
    std::span<const std::string_view> named = CoreFields(t);
    if (named.empty()) named = CheckTypeFields(t);
    std::string list;
    for (size_t i = 0; i < named.size(); ++i) {
      if (i > 0) list += i + 1 == named.size() ? " or " : ", ";
      list += named[i];
    }
    if (!message.empty()) message += " ";
    message += "No column fits the " + t + " check (no " + list + " column).";
  }
  if (message.empty()) return std::nullopt;
  const std::vector<std::string> fit = FittingCheckTypes(mapping);
  if (fit.empty()) {
    message += " The columns fit no check type; send a mapping.";
  } else {
    message += " The columns fit: ";
    for (size_t i = 0; i < fit.size(); ++i) message += (i ? ", " : "") + fit[i];
    message += ".";
  }
  return message;
}

}  // namespace dq::ingest
