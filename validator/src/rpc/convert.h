// Conversions between the engine's types and the v1 protobuf messages, and the one function that
// maps a dq::Status to a gRPC status.
#pragma once

#include <grpcpp/support/status.h>

#include "engine/types.h"
#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::validator::rpc {

// Errors (kInvalidRequest): an unknown field, check type, platform, weight unit or date order; a
// field listed twice; a value_index of another length than fields and extra columns; a
// convention for an unknown field, a field not in fields, or a field given twice
// (BatchSpec::AddConvention); an extra column BatchSpec::AddExtraColumn refuses.
Result<BatchSpec> FromProto(const v1::BatchSpec& spec);
// channel_bits (BatchSpec.channel_bits): the channels the issue blocks as Issue.channel_bits
// instead of Issue.channels.
void ToProto(const Issue& issue, v1::Issue* out, bool channel_bits = false);
// The same, moving the issue's texts (original, fixed and message) into the message.
void ToProto(Issue&& issue, v1::Issue* out, bool channel_bits = false);
void ToProto(const Stats& stats, v1::Stats* out);

// kInvalidRequest -> INVALID_ARGUMENT, kUnavailable -> UNAVAILABLE, kNotFound -> NOT_FOUND,
// anything else -> INTERNAL.
grpc::Status ToGrpcStatus(const Status& status);

}  // namespace dq::validator::rpc
