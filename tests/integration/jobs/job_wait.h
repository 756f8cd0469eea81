// Waiting for a job through the API, as a client would: the one poll the job tests share.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

#include "dq/testing/harness.h"

namespace dq::testing {

// Polls GET {gateway}/v1/jobs/{id} with `key` until the job is done or failed, or `timeout`
// passes; returns the job as last read (its status says which).
inline nlohmann::json WaitJobEnded(const std::string& gateway, const std::string& key,
                                   const std::string& id,
                                   std::chrono::seconds timeout = std::chrono::seconds(30)) {
  nlohmann::json job;
  WaitFor(
      [&] {
        job = nlohmann::json::parse(
            Http("GET", gateway + "/v1/jobs/" + id, {{"X-API-Key", key}}).body, nullptr, false);
        return job.is_object() && (job["status"] == "done" || job["status"] == "failed");
      },
      timeout);
  return job;
}

}  // namespace dq::testing
