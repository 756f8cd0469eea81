// The JSON error contract, in one place:
//   {"error": "<code>", "message": "<sentence>", "details": [{"field": ..., "message": ...}]}
// with the HTTP status that belongs to the code. 503 and 429 carry Retry-After; 405 carries Allow
// (set by the caller, which knows the allowed methods).
#pragma once

#include "dq/common/status.h"
#include "http_types.h"

namespace dq::gateway {

// The HTTP status for an error code (kOk -> 200).
int HttpStatusFor(ErrorCode code);

// At most this many details are listed (the message then says how many there were), each field
// and message cut to kMaxDetailChars: an error answer stays small whatever the request held.
inline constexpr size_t kMaxErrorDetails = 50;
inline constexpr size_t kMaxDetailChars = 200;

// The response for a failed Status. status must not be OK.
HttpResponse ErrorResponse(const Status& status);

// Adds "request_id" to a JSON error body ({"error": ...}); other responses are left alone.
void AddRequestId(HttpResponse& response, const std::string& request_id);

// A JSON body with the given status.
HttpResponse JsonResponse(int status, std::string body);

}  // namespace dq::gateway
