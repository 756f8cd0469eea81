#include "role.h"

#include <string>

namespace dq::gateway {

Result<Role> ParseRole(std::string_view text) {
  if (text == "api") return Role::kApi;
  if (text == "worker") return Role::kWorker;
  if (text == "all") return Role::kAll;
  return Status(ErrorCode::kInvalidRequest,
                "DQ_ROLE is \"" + std::string(text) + "\"; use api, worker or all.");
}

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kApi: return "api";
    case Role::kWorker: return "worker";
    case Role::kAll: return "all";
  }
  return "all";
}

}  // namespace dq::gateway
