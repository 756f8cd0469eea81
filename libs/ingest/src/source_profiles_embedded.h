// The source profiles' JSON files, compiled in (generated source_profiles_embedded.cpp; see
// libs/ingest/CMakeLists.txt). Read by source_profile.cpp only.
#pragma once

#include <cstddef>
#include <string_view>

namespace dq::ingest::embedded {

struct EmbeddedProfile {
  std::string_view file;  // "shopify_products.json"
  std::string_view text;
};

extern const EmbeddedProfile kSourceProfiles[];  // in CMakeLists.txt's order, generic last
extern const size_t kSourceProfileCount;

}  // namespace dq::ingest::embedded
