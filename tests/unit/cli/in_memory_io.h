// The offline CLI's Io over memory, for tests of `dq` as a command line: files_ are what it can
// read, written_ what --cleaned wrote (a path under /readonly/ cannot be written), out_ and err_
// its two streams.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "app.h"

namespace dq::offline {

class InMemoryIoTest : public ::testing::Test {
 protected:
  InMemoryIoTest() {
    io_.out = &out_;
    io_.err = &err_;
    io_.read = [this](const std::string& path) -> Result<std::string> {
      auto it = files_.find(path);
      if (it == files_.end()) return Status(ErrorCode::kNotFound, path + ": cannot be opened");
      return it->second;
    };
    io_.open_out = [this](const std::string& path, std::string* error) -> std::ostream* {
      if (path.rfind("/readonly/", 0) == 0) {
        *error = path + ": cannot be written";
        return nullptr;
      }
      return &written_[path];
    };
  }

  std::map<std::string, std::string> files_;
  std::map<std::string, std::ostringstream> written_;
  std::ostringstream out_, err_;
  Io io_;
};

}  // namespace dq::offline
