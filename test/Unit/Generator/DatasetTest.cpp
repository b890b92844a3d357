//===- DatasetTest.cpp - Dataset files: write, read, resume ---------------===//

#include "tuner/CostModel/Dataset.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

::testing::AssertionResult succeeded(llvm::Error error) {
  if (!error)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << llvm::toString(std::move(error));
}

/// A fresh temporary folder, removed afterwards.
class DatasetTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("tuner-dataset-test", folder));
    llvm::Expected<Space> made = makeSpace();
    ASSERT_TRUE(bool(made)) << llvm::toString(made.takeError());
    space = std::move(*made);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(folder); }

  static llvm::Expected<Space> makeSpace() {
    Space space;
    if (llvm::Error error = space.addParameter(Parameter::ordinal(
            "tile", {ParamValue::integer(1), ParamValue::integer(4),
                     ParamValue::integer(16)})))
      return std::move(error);
    if (llvm::Error error = space.addParameter(Parameter::boolean("vec")))
      return std::move(error);
    if (llvm::Error error = space.addParameter(Parameter::permutation("o", 2)))
      return std::move(error);
    space.attributes["workload"] = "test";
    return space;
  }

  ProgramRecord program(llvm::StringRef id) const {
    ProgramRecord record;
    record.id = id.str();
    record.tree.functionName = "program";
    record.tree.buffers.push_back(
        {0, "%arg0", {4, 8}, ElementType::F32, true, false, true});
    record.space = space;
    record.mlir = "func.func @program() {\n  return\n}\n";
    record.generator = "random-linalg seed=3";
    record.baselineSeconds = 0.0125;
    record.baselineForeignLoad = 0.125;
    record.target = "skylake-avx512;2 cores";
    return record;
  }

  SampleRecord sample(llvm::StringRef id, int64_t tile, bool ok) const {
    SampleRecord record;
    record.programId = id.str();
    record.config = Config({ParamValue::integer(tile), ParamValue::boolean(ok),
                            ParamValue::permutation({1, 0})});
    record.status = ok ? Status::Ok : Status::WrongResult;
    record.speedup = ok ? 1.5 : 0;
    record.medianSeconds = ok ? 0.008 : 0;
    record.foreignLoad = ok ? 0.25 : -1;
    record.generationSeconds = ok ? 1.75 : -1;
    record.message = ok ? "" : "output #0 differs at [3, 1]";
    return record;
  }

  std::string path(llvm::StringRef name) const {
    llvm::SmallString<256> result(folder);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }

  std::string readText(llvm::StringRef name) const {
    auto buffer = llvm::MemoryBuffer::getFile(path(name));
    return buffer ? (*buffer)->getBuffer().str() : "<unreadable>";
  }

  void append(llvm::StringRef name, llvm::StringRef text) const {
    std::error_code error;
    llvm::raw_fd_ostream os(path(name), error, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(error);
    os << text;
  }

  /// Writes two programs and three samples through a writer for `suffix`.
  void writeShard(llvm::StringRef suffix, llvm::StringRef prefix) {
    llvm::Expected<DatasetWriter> writer = DatasetWriter::open(folder, suffix);
    ASSERT_TRUE(bool(writer)) << llvm::toString(writer.takeError());
    std::string a = (prefix + "-p0").str(), b = (prefix + "-p1").str();
    ASSERT_TRUE(succeeded(writer->add(program(a))));
    ASSERT_TRUE(succeeded(writer->add(sample(a, 4, true), space)));
    ASSERT_TRUE(succeeded(writer->add(sample(a, 16, false), space)));
    ASSERT_TRUE(succeeded(writer->add(program(b))));
    ASSERT_TRUE(succeeded(writer->add(sample(b, 1, true), space)));
  }

  std::string readError() {
    llvm::Expected<Dataset> dataset = Dataset::read(folder);
    if (dataset)
      return "";
    return llvm::toString(dataset.takeError());
  }

  llvm::SmallString<128> folder;
  Space space;
};

TEST_F(DatasetTest, RoundTrip) {
  writeShard("-s0-of-1", "s1");
  EXPECT_EQ(readText("programs-s0-of-1.jsonl").back(), '\n');
  llvm::Expected<Dataset> dataset = Dataset::read(folder);
  ASSERT_TRUE(bool(dataset)) << llvm::toString(dataset.takeError());
  EXPECT_TRUE(dataset->warnings.empty());
  ASSERT_EQ(dataset->programs.size(), 2u);
  ASSERT_EQ(dataset->samples.size(), 3u);

  const ProgramRecord &p = dataset->programs[0];
  ProgramRecord expected = program("s1-p0");
  EXPECT_EQ(p.id, "s1-p0");
  EXPECT_EQ(p.mlir, expected.mlir);
  EXPECT_EQ(p.generator, expected.generator);
  EXPECT_EQ(p.target, expected.target);
  EXPECT_EQ(p.baselineSeconds, 0.0125);
  EXPECT_EQ(p.baselineForeignLoad, 0.125);
  EXPECT_EQ(p.tree.toJSON(), expected.tree.toJSON());
  EXPECT_EQ(p.space.toJSON(), space.toJSON());

  const SampleRecord &ok = dataset->samples[0];
  EXPECT_EQ(ok.programId, "s1-p0");
  EXPECT_EQ(ok.config, sample("s1-p0", 4, true).config);
  EXPECT_EQ(ok.status, Status::Ok);
  EXPECT_EQ(ok.speedup, 1.5);
  EXPECT_EQ(ok.medianSeconds, 0.008);
  EXPECT_EQ(ok.foreignLoad, 0.25);
  const SampleRecord &failed = dataset->samples[1];
  EXPECT_EQ(failed.status, Status::WrongResult);
  // Unknown foreign load (older datasets): no field, read back as unknown.
  EXPECT_EQ(failed.foreignLoad, -1);
  EXPECT_EQ(readText("samples-s0-of-1.jsonl").find("\"foreign_load\":-1"),
            std::string::npos);
  // The same for what a sample cost to make.
  EXPECT_EQ(ok.generationSeconds, 1.75);
  EXPECT_EQ(failed.generationSeconds, -1);
  EXPECT_EQ(
      readText("samples-s0-of-1.jsonl").find("\"generation_seconds\":-1"),
      std::string::npos);
  EXPECT_EQ(failed.speedup, 0);
  EXPECT_EQ(failed.message, "output #0 differs at [3, 1]");

  std::map<std::string, size_t> index = dataset->programIndex();
  EXPECT_EQ(index.at("s1-p1"), 1u);
}

TEST_F(DatasetTest, ShardsMergeAndReadAlone) {
  writeShard("-s0-of-2", "a");
  writeShard("-s1-of-2", "b");
  llvm::Expected<Dataset> all = Dataset::read(folder);
  ASSERT_TRUE(bool(all)) << llvm::toString(all.takeError());
  EXPECT_EQ(all->programs.size(), 4u);
  EXPECT_EQ(all->samples.size(), 6u);
  llvm::Expected<Dataset> one = Dataset::readShard(folder, "-s1-of-2");
  ASSERT_TRUE(bool(one)) << llvm::toString(one.takeError());
  ASSERT_EQ(one->programs.size(), 2u);
  EXPECT_EQ(one->programs[0].id, "b-p0");
  EXPECT_EQ(one->samples.size(), 3u);
  llvm::Expected<Dataset> none = Dataset::readShard(folder, "-s0-of-9");
  ASSERT_TRUE(bool(none)) << llvm::toString(none.takeError());
  EXPECT_TRUE(none->programs.empty());
}

TEST_F(DatasetTest, TruncatedLastLineIsSkippedThenRemoved) {
  writeShard("-s0-of-1", "s1");
  std::string intact = readText("samples-s0-of-1.jsonl");
  append("samples-s0-of-1.jsonl", "{\"program\": \"s1-p1\", \"conf");
  llvm::Expected<Dataset> dataset = Dataset::read(folder);
  ASSERT_TRUE(bool(dataset)) << llvm::toString(dataset.takeError());
  EXPECT_EQ(dataset->samples.size(), 3u);
  ASSERT_EQ(dataset->warnings.size(), 1u);
  EXPECT_NE(dataset->warnings[0].find("samples-s0-of-1.jsonl:4: skipped a "
                                      "truncated last line"),
            std::string::npos)
      << dataset->warnings[0];

  // Reopening removes the partial line; new records follow whole lines.
  llvm::Expected<DatasetWriter> writer =
      DatasetWriter::open(folder, "-s0-of-1");
  ASSERT_TRUE(bool(writer)) << llvm::toString(writer.takeError());
  EXPECT_EQ(readText("samples-s0-of-1.jsonl"), intact);
  ASSERT_TRUE(succeeded(writer->add(sample("s1-p1", 16, true), space)));
  dataset = Dataset::read(folder);
  ASSERT_TRUE(bool(dataset)) << llvm::toString(dataset.takeError());
  EXPECT_EQ(dataset->samples.size(), 4u);
  EXPECT_TRUE(dataset->warnings.empty());
}

TEST_F(DatasetTest, WholeLastRecordWithoutNewlineIsKept) {
  writeShard("-s0-of-1", "s1");
  std::string text = readText("samples-s0-of-1.jsonl");
  text.pop_back(); // Killed just before the newline.
  {
    std::error_code error;
    llvm::raw_fd_ostream os(path("samples-s0-of-1.jsonl"), error);
    ASSERT_FALSE(error);
    os << text;
  }
  llvm::Expected<Dataset> dataset = Dataset::read(folder);
  ASSERT_TRUE(bool(dataset)) << llvm::toString(dataset.takeError());
  EXPECT_EQ(dataset->samples.size(), 3u);
  llvm::Expected<DatasetWriter> writer =
      DatasetWriter::open(folder, "-s0-of-1");
  ASSERT_TRUE(bool(writer)) << llvm::toString(writer.takeError());
  EXPECT_EQ(readText("samples-s0-of-1.jsonl"), text + "\n");
}

TEST_F(DatasetTest, MalformedLineNamesFileAndLine) {
  writeShard("-s0-of-1", "s1");
  // A broken line that is not the last one is an error, not a warning.
  std::string text = readText("samples-s0-of-1.jsonl");
  size_t second = text.find('\n') + 1;
  text.insert(second, "{\"program\": oops}\n");
  {
    std::error_code error;
    llvm::raw_fd_ostream os(path("samples-s0-of-1.jsonl"), error);
    ASSERT_FALSE(error);
    os << text;
  }
  std::string error = readError();
  EXPECT_NE(error.find("samples-s0-of-1.jsonl:2: not a JSON record"),
            std::string::npos)
      << error;
}

TEST_F(DatasetTest, BadRecordsNameTheProblem) {
  writeShard("-s0-of-1", "s1");
  append("samples-s0-of-1.jsonl",
         "{\"program\": \"nope\", \"config\": {}, \"status\": \"ok\", "
         "\"speedup\": 1, \"median_seconds\": 1}\n");
  std::string error = readError();
  EXPECT_NE(error.find("samples-s0-of-1.jsonl:4: sample of unknown program "
                       "'nope'"),
            std::string::npos)
      << error;
}

TEST_F(DatasetTest, BadSampleFields) {
  auto sampleError = [&](llvm::json::Value json) {
    llvm::Expected<SampleRecord> read = sampleFromJSON(json, space);
    return read ? std::string() : llvm::toString(read.takeError());
  };
  llvm::json::Value good = toJSON(sample("x", 4, true), space);
  EXPECT_EQ(sampleError(good), "");

  llvm::json::Value badStatus = good;
  (*badStatus.getAsObject())["status"] = "slow";
  EXPECT_NE(sampleError(badStatus).find("field 'status' must be"),
            std::string::npos);
  llvm::json::Value badConfig = good;
  (*(*badConfig.getAsObject()).getObject("config"))["tile"] = 3;
  std::string configError = sampleError(badConfig);
  EXPECT_NE(configError.find("field 'config': "), std::string::npos)
      << configError;
  EXPECT_NE(configError.find("tile"), std::string::npos) << configError;
  llvm::json::Value noSpeedup = good;
  (*noSpeedup.getAsObject())["speedup"] = 0;
  EXPECT_NE(sampleError(noSpeedup).find("needs a positive speedup"),
            std::string::npos);
  llvm::json::Value negativeCost = good;
  (*negativeCost.getAsObject())["generation_seconds"] = -2;
  EXPECT_NE(sampleError(negativeCost)
                .find("field 'generation_seconds' must be a number >= 0"),
            std::string::npos)
      << sampleError(negativeCost);
  llvm::json::Value missing = good;
  missing.getAsObject()->erase("median_seconds");
  EXPECT_NE(sampleError(missing).find("missing field 'median_seconds'"),
            std::string::npos);
}

TEST_F(DatasetTest, BadProgramFields) {
  auto programError = [&](llvm::json::Value json) {
    llvm::Expected<ProgramRecord> read = programFromJSON(json);
    return read ? std::string() : llvm::toString(read.takeError());
  };
  llvm::json::Value good = toJSON(program("p"));
  EXPECT_EQ(programError(good), "");
  llvm::json::Value noId = good;
  (*noId.getAsObject())["id"] = "";
  EXPECT_NE(programError(noId).find("field 'id' must be a non-empty string"),
            std::string::npos);
  llvm::json::Value badTree = good;
  (*badTree.getAsObject()).getObject("tree")->erase("loops");
  std::string treeError = programError(badTree);
  EXPECT_NE(treeError.find("program 'p': field 'tree': missing value"),
            std::string::npos)
      << treeError;
  llvm::json::Value badTime = good;
  (*badTime.getAsObject())["baseline_seconds"] = -1;
  EXPECT_NE(programError(badTime).find("'baseline_seconds' must be a number"),
            std::string::npos);
}

TEST_F(DatasetTest, DuplicateProgramAndEmptyFolder) {
  EXPECT_NE(readError().find("no programs*.jsonl or samples*.jsonl files"),
            std::string::npos);
  writeShard("-s0-of-2", "s1");
  writeShard("-s1-of-2", "s1");
  std::string error = readError();
  EXPECT_NE(error.find("programs-s1-of-2.jsonl:1: program 's1-p0' was "
                       "already read from "),
            std::string::npos)
      << error;
  llvm::Expected<Dataset> missing = Dataset::read(path("missing"));
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("not a folder"),
            std::string::npos);
}

} // namespace
