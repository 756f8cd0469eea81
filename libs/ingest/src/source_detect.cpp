#include "dq/ingest/source_detect.h"

#include "dq/common/ascii.h"
#include "dq/ingest/mapping_inference.h"

namespace dq::ingest {
namespace {

// "a, b and c".
std::string JoinAnd(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

// The first word of a type cell, lower case: "simple" for "Simple, downloadable".
std::string FirstWord(std::string_view cell) {
  cell = ascii::Trim(cell);
  const size_t end = cell.find_first_of(", ;|");
  return ascii::Lower(cell.substr(0, end));
}

struct Match {
  const SourceProfile* profile = nullptr;
  const SourceSignature* signature = nullptr;
  std::vector<std::string> columns;  // the header's spelling of each group's column
  std::string first_row;             // the first-row value that confirmed it, if any
  std::string xml_namespace;         // the items' namespace that confirmed it, if any
  size_t evidence = 0;
};

// Whether `profile` fits the file, and how well.
bool Fits(const SourceProfile& profile, std::span<const std::string> header,
          std::span<const std::vector<std::string>> rows,
          std::span<const std::string> namespaces, Match* best) {
  bool any = false;
  for (const SourceSignature& sig : profile.signatures) {
    Match m;
    m.profile = &profile;
    m.signature = &sig;
    bool ok = true;
    for (const auto& group : sig.groups) {
      const size_t c = FindColumn(header, group);
      if (c == SIZE_MAX) {
        ok = false;
        break;
      }
      m.columns.push_back(header[c]);
    }
    if (!ok || FindColumn(header, sig.none) != SIZE_MAX) continue;
    if (!sig.xml_namespaces.empty()) {
      for (const std::string& used : namespaces) {
        for (const std::string& want : sig.xml_namespaces) {
          if (m.xml_namespace.empty() && used.starts_with(want)) m.xml_namespace = used;
        }
      }
      if (m.xml_namespace.empty()) continue;
    }
    const size_t type = FindColumn(header, profile.first_row_columns);
    if (type != SIZE_MAX && !rows.empty()) {
      for (const auto& row : rows) {
        if (type >= row.size()) continue;
        const std::string word = FirstWord(row[type]);
        for (const auto& v : profile.first_row_values) {
          if (word == ascii::Lower(v)) m.first_row = header[type] + " holds " + word;
        }
        if (!m.first_row.empty()) break;
      }
      if (m.first_row.empty()) continue;
    }
    for (const auto& e : profile.evidence) {
      if (FindColumn(header, std::span<const std::string>(&e, 1)) != SIZE_MAX) ++m.evidence;
    }
    const bool better = best->profile == nullptr ||
                        m.signature->weight() > best->signature->weight() ||
                        (m.signature->weight() == best->signature->weight() &&
                         m.evidence > best->evidence);
    if (better) *best = std::move(m);
    any = true;
  }
  return any;
}

std::string Reason(const Match& m) {
  std::string r = "header has " + JoinAnd(m.columns);
  if (!m.xml_namespace.empty()) r += ", and its items use elements of " + m.xml_namespace;
  if (!m.first_row.empty()) r += ", and " + m.first_row;
  return r + ": " + m.signature->what;
}

}  // namespace

SourceDetection DetectSource(std::span<const std::string> header,
                             std::span<const std::vector<std::string>> first_rows,
                             std::string_view claimed,
                             std::span<const std::string> xml_namespaces) {
  if (first_rows.size() > kDetectRows) first_rows = first_rows.first(kDetectRows);
  Match best;
  for (const SourceProfile& p : SourceProfiles()) {
    Match m;
    if (Fits(p, header, first_rows, xml_namespaces, &m)) {
      const bool better = best.profile == nullptr ||
                          m.signature->weight() > best.signature->weight() ||
                          (m.signature->weight() == best.signature->weight() &&
                           m.evidence > best.evidence);
      if (better) best = std::move(m);
    }
  }
  SourceDetection d;
  if (!claimed.empty()) {
    const SourceProfile* want = FindSourceProfile(claimed);
    if (want == nullptr) want = &GenericProfile();  // callers check names first
    if (want == &GenericProfile()) {
      d.profile = want;
      d.reason = "set by the caller";
      return d;
    }
    Match own;
    if (Fits(*want, header, first_rows, xml_namespaces, &own)) {
      d.profile = want;
      d.reason = "set by the caller; " + Reason(own);
      return d;
    }
    if (best.profile != nullptr) {
      d.profile = &GenericProfile();
      d.reason = "the file was sent as " + std::string(claimed) + ", but " + Reason(best) +
                 ", so it was read as generic";
      d.notes.push_back("The file was sent as source " + std::string(claimed) +
                        ", but its header is that of " + best.signature->what + " (" +
                        Reason(best) + "); it was read as generic: every row is checked as a "
                        "product of its own. Send the right source, or none to detect it.");
      return d;
    }
    d.profile = want;
    d.reason = "set by the caller (the header fits no known platform)";
    return d;
  }
  if (best.profile == nullptr) {
    d.profile = &GenericProfile();
    d.reason = "the header matches no known platform's export";
    return d;
  }
  d.profile = best.profile;
  d.reason = Reason(best);
  return d;
}

}  // namespace dq::ingest
