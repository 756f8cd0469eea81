// The one issue encoder: an issue as every answer of the API writes it, and as `dq check` prints
// it. Each member is written in one place; the two forms differ only in which members they carry,
// in what order, and under what names:
//   job record (GET /v1/jobs/:id, its issues page, `dq check --format json`), as stored:
//     {"id","issue_row","severity","field","code","message","original_value","fixed_value",
//      "sku","item_id","title"}
//   validate issue (POST /v1/validate):
//     {"code","field","fixed_value","item_id","message","original_value","row","severity","sku",
//      "title"}
// The item's names (sku, item_id, title) are null when empty. With platform templates
// (with_channels), each form also carries "channels", the templates the issue blocks: first in a
// validate issue (its members are in alphabetical order), last in a job record; read from
// Issue.channels or, when that is empty, Issue.channel_bits (the same list). The issues CSV
// has no channels column.
// and a row of the issues CSV (GET /v1/jobs/:id/issues?format=csv, `dq check --format csv`) is a
// job record's members, in its order, under its names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dq/validator/v1/validator.pb.h"

namespace dq::report {

enum class IssueForm { kJobRecord, kValidate };

// The item an issue is about (design-31 point 7): its row's sku, the product it belongs to, and
// its title (or its product's). Empty when unknown.
struct ItemNames {
  std::string_view sku, item_id, title;
};

// Appends the issue as a JSON object in `form`. `id` is the job record's (from 1); kValidate has
// none.
void AppendIssueJson(std::string& out, const validator::v1::Issue& issue, IssueForm form,
                     int64_t id = 0, const ItemNames& names = {}, bool with_channels = false);
// One job record, as stored and served.
std::string IssueJson(int64_t id, const validator::v1::Issue& issue, const ItemNames& names = {},
                      bool with_channels = false);

// The issues CSV's header line (CRLF-terminated): the job record's member names.
const std::string& IssuesCsvHeader();
// Appends the CSV line (CRLF-terminated) of a stored job record. False, with nothing appended,
// when the record is not a JSON object with a numeric id and issue_row.
bool AppendIssueCsvRow(std::string& out, std::string_view record);

}  // namespace dq::report
