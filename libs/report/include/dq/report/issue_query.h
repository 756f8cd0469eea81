// The query of a job's issues page (GET /v1/jobs/:id/issues, JSON and CSV): filters by code,
// field, severity and sku, the offset/limit page of docs/api.md, and the cursor that continues a
// scan where the last page stopped. Pure: the stored issues come through a reader, so the logic
// is tested without a store or a server.
//
// A cursor names a position in the job's stored issues (in their stored order). Without
// filters, a page of `limit` issues from position p ends at p + limit; with filters, the scan
// reads stored issues from p until it has `limit` matches, reaches the end, or has read
// kMaxScanned records, and the next cursor is where it stopped. So a filtered page may hold fewer
// than `limit` issues while more follow: a client continues while next_cursor is not null.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/status.h"

namespace dq::report {

struct IssueQuery {
  // Each filter holds the values any of which an issue may have (exact match); empty: any.
  std::vector<std::string> codes, fields, severities, skus;
  int64_t offset = 0;  // matching issues to skip (no cursor)
  int64_t limit = 1000;
  std::optional<int64_t> cursor;  // stored position to continue from

  bool Filtered() const {
    return !codes.empty() || !fields.empty() || !severities.empty() || !skus.empty();
  }
};

// Parses the issues page's query parameters (decoded name/value pairs, in order). Takes
// `format` (checked by the caller), offset, limit (1 to max_limit), cursor, and the filters code,
// field, severity, sku, each repeatable and comma-separated. Errors (kInvalidRequest, naming
// every bad name or value in the message and in the details): a parameter the endpoint does not
// take, an issue code the catalogue does not have, a field that is not a standard field, a
// severity other than error or warning, a malformed cursor, or a cursor with an offset.
Result<IssueQuery> ParseIssueQuery(const std::vector<std::pair<std::string, std::string>>& params,
                                   int64_t default_limit, int64_t max_limit);

// True when the stored job record (issue_json.h) passes every filter. A record that is not a
// JSON object passes none.
bool Matches(const IssueQuery& query, std::string_view record);

std::string EncodeCursor(int64_t position);
std::optional<int64_t> DecodeCursor(std::string_view cursor);

struct IssuePage {
  std::vector<std::string> issues;  // stored records, as stored
  std::optional<int64_t> next;      // position to continue from; nullopt: the scan is done
};

// Reads stored records [offset, offset + count); fewer at the end.
using IssueReader = std::function<Result<std::vector<std::string>>(int64_t offset, int64_t count)>;

// Upper bound of stored records one filtered page reads.
inline constexpr int64_t kMaxScanned = 50000;

// One page of `query` over `stored` stored records, read `batch` at a time.
Result<IssuePage> CollectIssues(const IssueQuery& query, int64_t stored, const IssueReader& read,
                                int64_t batch, int64_t max_scanned = kMaxScanned);

}  // namespace dq::report
