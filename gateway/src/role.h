// What one gateway process does (DQ_ROLE): serve the REST API, run job workers, or both.
//
//   api     the public HTTP listener only; no job workers, whatever DQ_WORKERS says. Uploads are
//           queued for worker processes elsewhere.
//   worker  DQ_WORKERS job worker threads and only the operations port (DQ_GATEWAY_OPS_PORT:
//           /healthz, /readyz, /metrics); no public listener. Scaled on the queue's metrics.
//   all     both, in one process (the default; ./dev up and single-node setups).
#pragma once

#include <string_view>

#include "dq/common/status.h"

namespace dq::gateway {

enum class Role { kApi, kWorker, kAll };

// Errors: kInvalidRequest naming DQ_ROLE and the accepted values.
Result<Role> ParseRole(std::string_view text);
std::string_view RoleName(Role role);

inline bool ServesApi(Role role) { return role != Role::kWorker; }
inline bool RunsWorkers(Role role) { return role != Role::kApi; }

}  // namespace dq::gateway
