//===- MeasurementTest.cpp - The shared vocabulary of outcomes ------------===//

#include "tuner/Support/Measurement.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

TEST(Measurement, StatusNames) {
  for (unsigned i = 0; i < kNumStatuses; ++i) {
    auto status = static_cast<Status>(i);
    EXPECT_EQ(parseStatus(statusName(status)), status);
  }
  EXPECT_EQ(statusName(Status::InvalidOutput), "invalid_output");
  EXPECT_EQ(statusNames(),
            "ok, apply_failed, compile_failed, crashed, timeout, "
            "wrong_result, invalid_output, model_error");
  EXPECT_FALSE(parseStatus("OK"));
  EXPECT_FALSE(parseStatus(""));
  EXPECT_EQ(statusName(Status::WrongResult), "wrong_result");
  EXPECT_EQ(statusName(Status::CompileFailed), "compile_failed");
  EXPECT_FALSE(parseStatus("fine"));
}

TEST(Measurement, JSONRoundTrip) {
  Measurement measurement;
  measurement.minSeconds = 1e-3;
  measurement.medianSeconds = 2e-3;
  measurement.maxSeconds = 4e-3;
  measurement.repetitions = 7;
  measurement.speedup = 1.5;
  measurement.foreignLoad = 0.25;
  measurement.pageFaultsPerCall = 0.125;
  llvm::Expected<Measurement> parsed =
      Measurement::fromJSON(measurement.toJSON());
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->status, Status::Ok);
  EXPECT_EQ(parsed->medianSeconds, 2e-3);
  EXPECT_EQ(parsed->repetitions, 7u);
  EXPECT_EQ(parsed->speedup, 1.5);
  EXPECT_EQ(parsed->foreignLoad, 0.25);
  EXPECT_EQ(parsed->pageFaultsPerCall, 0.125);

  Measurement failed = Measurement::failure(Status::Timeout, "too slow");
  parsed = Measurement::fromJSON(failed.toJSON());
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->status, Status::Timeout);
  EXPECT_EQ(parsed->message, "too slow");
  EXPECT_FALSE(parsed->ok());
  // Unknown (older records): absent from the JSON, negative when read.
  EXPECT_FALSE(failed.toJSON().getAsObject()->get("page_faults_per_call"));
  EXPECT_LT(parsed->pageFaultsPerCall, 0);

  llvm::json::Object mistyped =
      *measurement.toJSON().getAsObject();
  mistyped["page_faults_per_call"] = "many";
  llvm::Expected<Measurement> wrongType =
      Measurement::fromJSON(llvm::json::Value(std::move(mistyped)));
  ASSERT_FALSE(bool(wrongType));
  EXPECT_NE(llvm::toString(wrongType.takeError())
                .find("non-numeric field 'page_faults_per_call'"),
            std::string::npos);

  llvm::json::Value bad = llvm::json::Object{{"status", "sleepy"}};
  llvm::Expected<Measurement> rejected = Measurement::fromJSON(bad);
  ASSERT_FALSE(bool(rejected));
  EXPECT_NE(llvm::toString(rejected.takeError()).find("unknown status"),
            std::string::npos);
}

} // namespace
