#include "dq/ingest/source_profile.h"

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "dq/common/log.h"
#include "dq/common/vocabulary.h"
#include "dq/ingest/mapping_inference.h"
#include "source_profiles_embedded.h"

namespace dq::ingest {
namespace {

using nlohmann::json;

// A problem in a profile file, thrown while reading it and turned into a Status at the top.
struct ProfileError {
  std::string message;
};

[[noreturn]] void Fail(const std::string& where, const std::string& what) {
  throw ProfileError{where + ": " + what};
}

std::vector<std::string> Strings(const json& j, const std::string& where) {
  if (!j.is_array()) Fail(where, "must be an array of strings");
  std::vector<std::string> out;
  for (const auto& v : j) {
    if (!v.is_string() || v.get<std::string>().empty()) {
      Fail(where, "must hold non-empty strings");
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

std::vector<std::string> OptionalStrings(const json& o, const char* key, const std::string& where) {
  if (!o.contains(key)) return {};
  return Strings(o[key], where + "." + key);
}

std::string OptionalString(const json& o, const char* key, const std::string& where) {
  if (!o.contains(key)) return {};
  if (!o[key].is_string()) Fail(where + "." + key, "must be a string");
  return o[key].get<std::string>();
}

RowKind KindFromName(const json& v, const std::string& where) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "product") return RowKind::kProduct;
    if (s == "variant") return RowKind::kVariant;
    if (s == "parent") return RowKind::kParent;
    if (s == "image") return RowKind::kImage;
  }
  Fail(where, "must be product, variant, parent or image");
}

void CheckField(const std::string& field, const std::string& where) {
  if (!IndexOf(kStandardFields, field)) Fail(where, "'" + field + "' is not a standard field");
}

void CheckKnownKeys(const json& o, std::initializer_list<std::string_view> keys,
                    const std::string& where) {
  for (const auto& [k, v] : o.items()) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      Fail(where, "unknown member '" + k + "'");
    }
  }
}

// The optional array p[key] of objects holding only `keys`, each read by read(object, w) where w
// ("<where>.<key>[]") names it in errors; empty when p has no such member.
template <typename Read>
auto ReadObjects(const json& p, const char* key, const std::string& where,
                 std::initializer_list<std::string_view> keys, Read read) {
  std::vector<decltype(read(p, where))> out;
  if (!p.contains(key)) return out;
  if (!p[key].is_array()) Fail(where + "." + key, "must be an array");
  const std::string w = where + "." + key + "[]";
  for (const auto& o : p[key]) {
    if (!o.is_object()) Fail(w, "must be an object");
    CheckKnownKeys(o, keys, w);
    out.push_back(read(o, w));
  }
  return out;
}

RowRules ReadRows(const json& r, const std::string& where) {
  if (!r.is_object()) Fail(where, "must be an object");
  CheckKnownKeys(r, {"model", "kind", "kind_if_columns", "item_id", "key", "variant_columns",
                     "parent_if_columns", "groups_if_columns", "new_item_if_columns",
                     "key_if_empty",
                     "type_column", "types", "default_kind", "empty_kind", "variant_if",
                     "scope_columns", "parent_column", "strip_prefix", "variants_follow"},
                 where);
  RowRules rows;
  const std::string model = OptionalString(r, "model", where);
  if (model == "flat") {
    rows.model = RowModelKind::kFlat;
  } else if (model == "groups") {
    rows.model = RowModelKind::kGroups;
  } else if (model == "type") {
    rows.model = RowModelKind::kType;
  } else {
    Fail(where + ".model", "must be flat, groups or type");
  }
  if (r.contains("kind")) rows.kind = KindFromName(r["kind"], where + ".kind");
  if (r.contains("kind_if_columns")) {
    if (!r["kind_if_columns"].is_array()) Fail(where + ".kind_if_columns", "must be an array");
    for (const auto& k : r["kind_if_columns"]) {
      const std::string w = where + ".kind_if_columns[]";
      if (!k.is_object() || !k.contains("kind")) Fail(w, "must be {columns, kind}");
      rows.kind_if_columns.emplace_back(Strings(k.value("columns", json()), w + ".columns"),
                                        KindFromName(k["kind"], w + ".kind"));
    }
  }
  rows.item_id = OptionalStrings(r, "item_id", where);
  rows.key = OptionalStrings(r, "key", where);
  rows.variant_columns = OptionalStrings(r, "variant_columns", where);
  rows.parent_if_columns = OptionalStrings(r, "parent_if_columns", where);
  rows.groups_if_columns = OptionalStrings(r, "groups_if_columns", where);
  rows.new_item_if_columns = OptionalStrings(r, "new_item_if_columns", where);
  rows.key_if_empty = OptionalStrings(r, "key_if_empty", where);
  rows.type_column = OptionalStrings(r, "type_column", where);
  if (r.contains("types")) {
    if (!r["types"].is_object()) Fail(where + ".types", "must be an object");
    for (const auto& [word, kind] : r["types"].items()) {
      rows.types.emplace_back(word, KindFromName(kind, where + ".types." + word));
    }
  }
  if (r.contains("default_kind")) {
    rows.default_kind = KindFromName(r["default_kind"], where + ".default_kind");
  }
  if (r.contains("empty_kind")) {
    rows.has_empty_kind = true;
    rows.empty_kind = KindFromName(r["empty_kind"], where + ".empty_kind");
  }
  if (r.contains("variant_if")) {
    const json& v = r["variant_if"];
    if (!v.is_object()) Fail(where + ".variant_if", "must be {columns, values}");
    rows.variant_if_columns = Strings(v.value("columns", json()), where + ".variant_if.columns");
    rows.variant_if_values = Strings(v.value("values", json()), where + ".variant_if.values");
  }
  rows.scope_columns = OptionalStrings(r, "scope_columns", where);
  rows.parent_column = OptionalStrings(r, "parent_column", where);
  rows.strip_prefix = OptionalString(r, "strip_prefix", where);
  if (r.contains("variants_follow")) {
    if (!r["variants_follow"].is_boolean()) Fail(where + ".variants_follow", "must be a boolean");
    rows.variants_follow = r["variants_follow"].get<bool>();
  }
  if (rows.model == RowModelKind::kGroups && rows.key.empty()) {
    Fail(where, "a groups model needs a key column");
  }
  if (rows.model != RowModelKind::kType && !rows.scope_columns.empty()) {
    Fail(where + ".scope_columns", "is only for a type model");
  }
  if (rows.model != RowModelKind::kGroups && !rows.parent_if_columns.empty()) {
    Fail(where + ".parent_if_columns", "is only for a groups model");
  }
  if (rows.model != RowModelKind::kGroups && !rows.groups_if_columns.empty()) {
    Fail(where + ".groups_if_columns", "is only for a groups model");
  }
  if (rows.model != RowModelKind::kGroups && !rows.new_item_if_columns.empty()) {
    Fail(where + ".new_item_if_columns", "is only for a groups model");
  }
  if (rows.model != RowModelKind::kGroups && !rows.key_if_empty.empty()) {
    Fail(where + ".key_if_empty", "is only for a groups model");
  }
  if (rows.model == RowModelKind::kType &&
      (rows.type_column.empty() || (rows.types.empty() && !rows.has_empty_kind))) {
    Fail(where, "a type model needs type_column, and types or empty_kind");
  }
  return rows;
}

// The fields whose further columns' values can be checked as theirs (SourceAlsoChecked),
// report-only: the image fields' checks make no fix, and phone's fix (PHONE_NORMALIZED) is
// dropped for a further column (RowContext::Fix), since the cleaned file's writer puts a fix in
// the field's own column. Other fields' checks fix values a merchant would expect fixed.
constexpr std::string_view kReportOnlyFields[] = {"image_url", "additional_image_link", "phone"};

std::vector<SourceAlsoChecked> ReadAlsoChecked(const json& p, const std::string& where) {
  auto read = [](const json& a, const std::string& w) {
    SourceAlsoChecked also;
    also.field = OptionalString(a, "field", w);
    CheckField(also.field, w + ".field");
    if (std::find(std::begin(kReportOnlyFields), std::end(kReportOnlyFields), also.field) ==
        std::end(kReportOnlyFields)) {
      Fail(w + ".field", "'" + also.field +
                             "' has checks that fix values; only image_url, "
                             "additional_image_link and phone can be checked in further "
                             "columns");
    }
    also.columns = OptionalStrings(a, "columns", w);
    if (also.columns.empty()) Fail(w + ".columns", "must name at least one column");
    also.why = OptionalString(a, "why", w);
    if (also.why.empty()) Fail(w + ".why", "must say why the columns hold the field's values");
    return also;
  };
  return ReadObjects(p, "also_checked", where, {"field", "columns", "why"}, read);
}

std::vector<SourceSignature> ReadSignatures(const json& p, const std::string& where) {
  auto read = [](const json& g, const std::string& w) {
    SourceSignature sig;
    sig.what = OptionalString(g, "what", w);
    if (!g.contains("columns") || !g["columns"].is_array() || g["columns"].empty()) {
      Fail(w + ".columns", "must be a non-empty array of column groups");
    }
    for (const auto& group : g["columns"]) sig.groups.push_back(Strings(group, w + ".columns"));
    for (const auto& group : sig.groups) {
      if (group.empty()) Fail(w + ".columns", "has an empty group");
    }
    sig.none = OptionalStrings(g, "none", w);
    sig.xml_namespaces = OptionalStrings(g, "xml_namespaces", w);
    return sig;
  };
  return ReadObjects(p, "signatures", where, {"what", "columns", "none", "xml_namespaces"}, read);
}

// c[key] when present: true or false, else the profile is refused.
bool OptionalBool(const json& c, const char* key, const std::string& w) {
  if (!c.contains(key)) return false;
  if (!c[key].is_boolean()) Fail(w + "." + key, "must be true or false");
  return c[key].get<bool>();
}

SourceConvention ReadConvention(const json& c, const std::string& w) {
  if (!c.is_object()) Fail(w, "must be an object");
  CheckKnownKeys(c,
                 {"field", "columns", "list_separator", "value_aliases", "own_number_format",
                  "file_extensions", "html", "may_be_empty", "zero_is_empty", "empty_values",
                  "renamed_file_names", "why"},
                 w);
  SourceConvention conv;
  conv.field = OptionalString(c, "field", w);
  CheckField(conv.field, w + ".field");
  conv.columns = OptionalStrings(c, "columns", w);
  conv.list_separator = OptionalString(c, "list_separator", w);
  conv.own_number_format = OptionalBool(c, "own_number_format", w);
  conv.file_extensions = OptionalStrings(c, "file_extensions", w);
  for (const std::string& ext : conv.file_extensions) {
    if (ext.empty() || ext.size() > 10 || !std::all_of(ext.begin(), ext.end(), [](char ch) {
          return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        })) {
      Fail(w + ".file_extensions", "'" + ext + "' is not 1 to 10 lower-case letters and digits");
    }
  }
  conv.html = OptionalBool(c, "html", w);
  conv.may_be_empty = OptionalBool(c, "may_be_empty", w);
  conv.zero_is_empty = OptionalBool(c, "zero_is_empty", w);
  conv.empty_values = OptionalStrings(c, "empty_values", w);
  for (const std::string& v : conv.empty_values) {
    if (v.empty() || v.front() == ' ' || v.back() == ' ') {
      Fail(w + ".empty_values", "'" + v + "' is empty or has spaces at its ends");
    }
  }
  conv.renamed_file_names = OptionalBool(c, "renamed_file_names", w);
  if (conv.renamed_file_names && conv.file_extensions.empty()) {
    Fail(w + ".renamed_file_names", "needs file_extensions");
  }
  if ((conv.own_number_format || !conv.file_extensions.empty() || conv.html ||
       conv.may_be_empty || conv.zero_is_empty || !conv.empty_values.empty()) &&
      OptionalString(c, "why", w).empty()) {
    Fail(w + ".why", "must say why the platform writes the field so");
  }
  if (c.contains("value_aliases")) {
    if (!c["value_aliases"].is_object()) Fail(w + ".value_aliases", "must be an object");
    for (const auto& [k, v] : c["value_aliases"].items()) {
      if (!v.is_string()) Fail(w + ".value_aliases." + k, "must be a string");
      conv.value_aliases.emplace_back(k, v.get<std::string>());
    }
  }
  return conv;
}

std::vector<SourceWeightRule> ReadWeightRules(const json& p, const std::string& where) {
  auto read = [](const json& w, const std::string& ww) {
    SourceWeightRule rule;
    rule.columns = OptionalStrings(w, "columns", ww);
    rule.unit = OptionalString(w, "unit", ww);
    rule.why = OptionalString(w, "why", ww);
    if (rule.unit != "g" && rule.unit != "kg" && rule.unit != "lb" && rule.unit != "oz" &&
        rule.unit != "unknown") {
      Fail(ww + ".unit", "must be g, kg, lb, oz or unknown");
    }
    if (rule.why.empty()) Fail(ww + ".why", "must say why");
    return rule;
  };
  return ReadObjects(p, "weight", where, {"columns", "unit", "why"}, read);
}

SourceProfile Read(std::string_view file, const json& p) {
  const std::string where(file);
  if (!p.is_object()) Fail(where, "must be a JSON object");
  CheckKnownKeys(p, {"source", "name", "doc", "signatures", "evidence", "first_rows", "rows",
                     "columns", "fields", "ignore_columns", "optional_fields", "conventions",
                     "weight", "also_checked", "trailing_columns"},
                 where);
  SourceProfile s;
  s.source = OptionalString(p, "source", where);
  s.name = OptionalString(p, "name", where);
  s.doc = OptionalString(p, "doc", where);
  if (s.source.empty() || s.name.empty()) Fail(where, "needs source and name");
  if (where != s.source + ".json") {
    Fail(where, "its source must be its file name, '" + s.source + "'");
  }
  s.signatures = ReadSignatures(p, where);
  s.evidence = OptionalStrings(p, "evidence", where);
  if (p.contains("first_rows")) {
    const json& f = p["first_rows"];
    if (!f.is_object()) Fail(where + ".first_rows", "must be {columns, values}");
    s.first_row_columns = Strings(f.value("columns", json()), where + ".first_rows.columns");
    s.first_row_values = Strings(f.value("values", json()), where + ".first_rows.values");
  }
  if (!p.contains("rows")) Fail(where, "needs rows");
  s.rows = ReadRows(p["rows"], where + ".rows");
  if (p.contains("columns")) {
    if (!p["columns"].is_object()) Fail(where + ".columns", "must be an object");
    // In standard-field order, whatever order the file lists them in.
    for (std::string_view field : kStandardFields) {
      auto it = p["columns"].find(std::string(field));
      if (it == p["columns"].end()) continue;
      s.columns.emplace_back(field, Strings(*it, where + ".columns." + std::string(field)));
    }
    for (const auto& [field, v] : p["columns"].items()) CheckField(field, where + ".columns");
  }
  s.fields = OptionalStrings(p, "fields", where);
  for (const auto& f : s.fields) CheckField(f, where + ".fields");
  s.ignore_columns = OptionalStrings(p, "ignore_columns", where);
  s.optional_fields = OptionalStrings(p, "optional_fields", where);
  for (const auto& f : s.optional_fields) CheckField(f, where + ".optional_fields");
  if (p.contains("conventions")) {
    if (!p["conventions"].is_array()) Fail(where + ".conventions", "must be an array");
    for (const auto& c : p["conventions"]) {
      s.conventions.push_back(ReadConvention(c, where + ".conventions[]"));
    }
  }
  s.weight = ReadWeightRules(p, where);
  s.also_checked = ReadAlsoChecked(p, where);
  if (p.contains("trailing_columns")) {
    const json& t = p["trailing_columns"];
    const std::string tw = where + ".trailing_columns";
    if (!t.is_object()) Fail(tw, "must be {columns, why}");
    CheckKnownKeys(t, {"columns", "why"}, tw);
    s.trailing_columns = Strings(t.value("columns", json()), tw + ".columns");
    if (s.trailing_columns.empty()) Fail(tw + ".columns", "must name a column");
    s.trailing_why = OptionalString(t, "why", tw);
    if (s.trailing_why.empty()) Fail(tw + ".why", "must say why");
  }
  return s;
}

struct Loaded {
  std::vector<SourceProfile> profiles;
  std::string names;
};

const Loaded& Profiles() {
  static const Loaded loaded = [] {
    Loaded l;
    for (size_t i = 0; i < embedded::kSourceProfileCount; ++i) {
      const auto& e = embedded::kSourceProfiles[i];
      auto p = ParseSourceProfile(e.file, e.text);
      // The files are part of the build and checked by a test: a bad one is a broken build.
      if (!p.ok()) {
        log::Error("source profile not read", {{"error", p.status().message()}});
        std::abort();
      }
      l.profiles.push_back(std::move(*p));
    }
    std::vector<std::string> names;
    for (const auto& p : l.profiles) names.push_back(p.source);
    std::sort(names.begin(), names.end());
    for (size_t i = 0; i < names.size(); ++i) l.names += (i ? ", " : "") + names[i];
    return l;
  }();
  return loaded;
}

}  // namespace

std::string_view RowKindName(RowKind kind) {
  switch (kind) {
    case RowKind::kProduct: return "product";
    case RowKind::kVariant: return "variant";
    case RowKind::kParent: return "parent";
    case RowKind::kImage: return "image";
  }
  return "product";
}

Result<SourceProfile> ParseSourceProfile(std::string_view name, std::string_view json_text) {
  json p = json::parse(json_text, nullptr, false);
  if (p.is_discarded()) {
    return Status(ErrorCode::kInvalidRequest, std::string(name) + ": is not valid JSON");
  }
  try {
    return Read(name, p);
  } catch (const ProfileError& e) {
    return Status(ErrorCode::kInvalidRequest, e.message);
  }
}

std::span<const SourceProfile> SourceProfiles() { return Profiles().profiles; }

const SourceProfile* FindSourceProfile(std::string_view source) {
  for (const auto& p : Profiles().profiles) {
    if (p.source == source) return &p;
  }
  return nullptr;
}

const SourceProfile& GenericProfile() { return Profiles().profiles.back(); }

std::string SourceNamesList() { return Profiles().names; }

size_t FindColumn(std::span<const std::string> header, std::span<const std::string> names) {
  for (const std::string& name : names) {
    const std::string want = NormalizeColumnName(name);
    for (size_t i = 0; i < header.size(); ++i) {
      if (NormalizeColumnName(header[i]) == want) return i;
    }
  }
  return SIZE_MAX;
}

size_t FieldsRequired(const SourceProfile& profile, std::span<const std::string> header) {
  size_t n = header.size();
  while (n > 0 && FindColumn(std::span(header).subspan(n - 1, 1), profile.trailing_columns) == 0) {
    --n;
  }
  return n;
}

}  // namespace dq::ingest
