// From a validate request's parsed records to what the validator is sent: the mapped columns'
// cells (a repeated key's last occurrence), the source's further columns checked as a field's,
// and each record's kind and names from the source's profile (ingest/check_plan.h), as an
// upload's header and rows give them to a job. Called by CheckBody (validate_request.cpp) once
// the body's members are known to be right.
#pragma once

#include "validate_request.h"

namespace dq::gateway::records {

// Resolves the mapped columns of every record: distinct columns, cells, and which member of a
// record feeds each column (the last occurrence of a repeated key); and the extra columns' cells.
void ResolveColumns(ValidateCommand& cmd);

// The check plan and each record's kind and names, from the source's profile. Without a source
// every record is a product, named by its mapped sku and title.
void ResolveItems(ValidateCommand& cmd);

}  // namespace dq::gateway::records
