// Data files compiled into the validator (generated embedded_data.cpp; see CMakeLists.txt).
#pragma once

#include <string_view>

namespace dq::validator::embedded {

extern const std::string_view kIso3166Json;        // iso-codes iso_3166-1.json
extern const std::string_view kIso4217Json;        // iso-codes iso_4217.json
extern const std::string_view kDisposableDomains;  // data/disposable_email_blocklist.conf
extern const std::string_view kGoogleTaxonomy;     // data/taxonomy-with-ids.en-US.txt

}  // namespace dq::validator::embedded
