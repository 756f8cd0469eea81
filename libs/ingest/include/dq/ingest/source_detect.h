// Which platform a file came from, decided from its header and its first rows against the
// source profiles' signatures (source_profile.h), with a reason a person can check:
//
//   SourceDetection d = DetectSource(header, first_rows, /*claimed=*/"");
//   d.profile->source   // "shopify_products"
//   d.reason            // "header has Handle, Variant SKU and Variant Grams: a Shopify
//                       //  products export"
//
// Rules (deterministic): a profile matches when one of its signatures matches (each group has a
// column in the header, no `none` column is there, an XML file's items use a namespace it names)
// and, when it names first-row evidence and the
// header has that column, one of the first rows holds one of its values. Among matches the one
// with the most signature groups, then the most evidence columns, then the earliest profile wins.
// A caller's claim is taken when the header fits it or fits no other profile; a file that claims
// one source and has another's header is read as generic, with a note saying so.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/ingest/source_profile.h"

namespace dq::ingest {

// The most rows DetectSource looks at.
inline constexpr size_t kDetectRows = 20;

struct SourceDetection {
  const SourceProfile* profile = nullptr;  // never null once detected
  std::string reason;
  std::vector<std::string> notes;  // for the job's and the preview's notes
};

// header: the file's columns; first_rows: up to kDetectRows data rows (cells in header order);
// claimed: the caller's `source` ("" for none; must name a profile, see FindSourceProfile);
// xml_namespaces: an XML file's item-element namespaces (RowReader::xml_namespaces), for the
// signatures that name one.
SourceDetection DetectSource(std::span<const std::string> header,
                             std::span<const std::vector<std::string>> first_rows,
                             std::string_view claimed,
                             std::span<const std::string> xml_namespaces = {});

}  // namespace dq::ingest
