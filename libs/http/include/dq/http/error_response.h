// The JSON error contract, in one place:
//   {"error": "<code>", "message": "<sentence>", "details": [{"field": ..., "message": ...}],
//    "request_id": "<id>"}
// members in that order, with the HTTP status that belongs to the code. The request id is set
// last, as a member of the object (AddRequestId), by whoever finishes the answer. 503 and 429
// carry Retry-After; 405 carries Allow (set by the caller, which knows the allowed methods).
#pragma once

#include <nlohmann/json.hpp>

#include "dq/common/status.h"
#include "dq/http/http_types.h"

namespace dq::http {

// The HTTP status for an error code (kOk -> 200).
int HttpStatusFor(ErrorCode code);

// At most this many details are listed (the message then says how many there were), each field
// and message cut to kMaxDetailChars: an error answer stays small whatever the request held.
inline constexpr size_t kMaxErrorDetails = 50;
inline constexpr size_t kMaxDetailChars = 200;

// The response for a failed Status. status must not be OK.
HttpResponse ErrorResponse(const Status& status);

// An error answer with a body of its own shape (an "error" code, a "message" and other members):
// the request id is added to it as to any other.
HttpResponse ErrorBodyResponse(int status, nlohmann::ordered_json object);

// Sets "request_id" in an error answer's JSON object and renders the body again. An answer made
// by ErrorResponse()/ErrorBodyResponse() keeps its object; any other answer of status >= 400
// whose JSON body is an object with a string "error" member is parsed for it. Other answers are
// left alone. A request id already in the object is kept.
void AddRequestId(HttpResponse& response, const std::string& request_id);

// A JSON body with the given status.
HttpResponse JsonResponse(int status, std::string body);

// 200 with the JSON body, or the error's answer (ErrorResponse).
HttpResponse JsonOrErrorResponse(Result<std::string> body);

}  // namespace dq::http
