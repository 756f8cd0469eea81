// ReadInput: a file whole, however large against its block size, and the words of its errors.
#include "read_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <cstdlib>

namespace dq::offline {
namespace {

std::string TempDir() {
  char name[] = "/tmp/dq-read-input-XXXXXX";
  return mkdtemp(name);
}

TEST(ReadInputTest, AFileIsReadWholeAcrossBlocks) {
  const std::string dir = TempDir();
  std::string bytes(3 * (1u << 20) + 17, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 31 % 251);
  std::ofstream(dir + "/f.bin", std::ios::binary) << bytes;
  auto read = ReadInput(dir + "/f.bin");
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(*read == bytes);
  std::ofstream(dir + "/empty.csv", std::ios::binary);
  EXPECT_EQ(*ReadInput(dir + "/empty.csv"), "");
  std::filesystem::remove_all(dir);
}

TEST(ReadInputTest, ErrorsNameThePathAndTheReason) {
  const std::string dir = TempDir();
  auto missing = ReadInput(dir + "/nope.csv");
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(missing.status().message(), dir + "/nope.csv: cannot be opened (No such file or "
                                              "directory)");
  auto directory = ReadInput(dir);
  EXPECT_EQ(directory.status().code(), ErrorCode::kInvalidRequest);
  EXPECT_EQ(directory.status().message(), dir + ": cannot be read (Is a directory)");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dq::offline
