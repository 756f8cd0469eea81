// The leaf elements of an S3 XML answer, in document order, as (local name, text) pairs: enough
// to read ListObjectsV2, ListMultipartUploads, InitiateMultipartUpload, DeleteObjects and error
// answers without a DOM. Internal to the S3 store.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dq::artifact {

using XmlLeaves = std::vector<std::pair<std::string, std::string>>;

// False when the text is not well-formed XML.
bool ParseXmlLeaves(std::string_view xml, XmlLeaves* out);

// The text of the first leaf called `name`, or "".
std::string FirstLeaf(const XmlLeaves& leaves, std::string_view name);

}  // namespace dq::artifact
