// The artifact store the settings name: DQ_ARTIFACT_STORE=fs (DQ_ARTIFACT_DIR) or s3
// (DQ_S3_ENDPOINT, DQ_S3_BUCKET, DQ_S3_REGION, DQ_S3_PART_BYTES, DQ_S3_MAX_ATTEMPTS), with the
// S3 credentials from the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, for
// temporary credentials, AWS_SESSION_TOKEN. They are not DQ_* settings, so that the names every
// S3 tool knows work here too; they are never logged.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "dq/artifact/artifact_store.h"
#include "dq/artifact/s3_artifact_store.h"
#include "dq/common/settings.h"

namespace dq::artifact {

// The S3 options from settings and env; kInvalidRequest naming what is missing or wrong (an
// endpoint that is not http(s)://host[:port], a bucket name S3 would refuse, no credentials).
Result<S3Options> S3OptionsFromSettings(const Settings& settings,
                                        const std::map<std::string, std::string>& env);

// The configured store, opened (fs: the directory is created and written once); nullptr for
// DQ_ARTIFACT_STORE=redis (job files stay in Redis, as before the store). It does not
// create a bucket: in production the bucket, its lifecycle rules and its policy are the
// operator's (docs/deploy.md, "Job files").
Result<std::unique_ptr<ArtifactStore>> MakeArtifactStore(
    const Settings& settings, const std::map<std::string, std::string>& env);

// The process environment as a map, for the functions above.
std::map<std::string, std::string> ProcessEnvironment();

}  // namespace dq::artifact
