//===- ShapeSpecializationTest.cpp - The shapes= option -------------------===//

#include "tuner/Tuning/ShapeSpecialization.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tuner;

namespace {

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<std::vector<ShapeSet>> sets = parseShapeSets(text);
  if (sets)
    return "";
  return llvm::toString(sets.takeError());
}

TEST(ShapeSpecialization, ParsesInlineSets) {
  llvm::Expected<std::vector<ShapeSet>> sets =
      parseShapeSets("arg1=48x32, arg0=64x48");
  ASSERT_TRUE(bool(sets)) << llvm::toString(sets.takeError());
  ASSERT_EQ(sets->size(), 1u);
  EXPECT_EQ((*sets)[0].arguments.at(0), (std::vector<int64_t>{64, 48}));
  EXPECT_EQ((*sets)[0].arguments.at(1), (std::vector<int64_t>{48, 32}));
  // Printed in argument order: the key of the workload in the database.
  EXPECT_EQ((*sets)[0].str(), "arg0=64x48,arg1=48x32");
}

TEST(ShapeSpecialization, RejectsMalformedEntries) {
  EXPECT_NE(errorOf("arg0=64x?").find("'?' is not a size"), std::string::npos);
  EXPECT_NE(errorOf("a0=4").find("does not name an argument"),
            std::string::npos);
  EXPECT_NE(errorOf("arg0").find("expected arg<N>=<size>"), std::string::npos);
  EXPECT_NE(errorOf("arg0=4,arg0=5").find("given twice"), std::string::npos);
  EXPECT_NE(errorOf("arg0=-4").find("sizes must be positive"),
            std::string::npos);
  EXPECT_NE(errorOf("").find("no sizes given"), std::string::npos);
  EXPECT_NE(errorOf("@/nonexistent/shapes.json").find("cannot read"),
            std::string::npos);
}

TEST(ShapeSpecialization, ReadsSetsFromJSON) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("shapes", "json", path));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << R"({"shapes": [{"arg0": [8, 16]}, {"arg0": [3, 5], "arg2": [7]}]})";
  }
  llvm::Expected<std::vector<ShapeSet>> sets =
      parseShapeSets("@" + path.str().str());
  ASSERT_TRUE(bool(sets)) << llvm::toString(sets.takeError());
  ASSERT_EQ(sets->size(), 2u);
  EXPECT_EQ((*sets)[1].str(), "arg0=3x5,arg2=7");
  EXPECT_EQ(shapesAttribute(*sets), "arg0=8x16;arg0=3x5,arg2=7");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << R"([{"arg0": [8, "x"]}])";
  }
  EXPECT_NE(errorOf("@" + path.str().str())
                .find("set #0, \"arg0\": sizes must be integers"),
            std::string::npos);
  llvm::sys::fs::remove(path);
}

} // namespace
