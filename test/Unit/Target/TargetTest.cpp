//===- TargetTest.cpp - CPU and GPU target descriptions -------------------===//

#include "tuner/Target/Target.h"

#include "gtest/gtest.h"

using namespace tuner;

namespace {

llvm::json::Value gpuDescription() {
  Target target;
  target.kind = "gpu";
  target.cpu = "znver4";
  target.triple = "x86_64-unknown-linux-gnu";
  target.gpu.name = "NVIDIA H100 80GB HBM3";
  target.gpu.computeMajor = 9;
  target.gpu.computeMinor = 0;
  target.gpu.smCount = 132;
  return target.toJSON();
}

std::string errorOf(const llvm::json::Value &json) {
  llvm::Expected<Target> target = Target::fromJSON(json);
  if (target)
    return "";
  return llvm::toString(target.takeError());
}

TEST(TargetTest, GpuDescriptionRoundTrips) {
  llvm::Expected<Target> target = Target::fromJSON(gpuDescription());
  ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
  EXPECT_TRUE(target->isGpu());
  EXPECT_EQ(target->gpu.chip(), "sm_90");
  EXPECT_EQ(target->gpu.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(target->gpu.maxThreadsPerBlock, 1024u);
  EXPECT_EQ(target->gpu.ptxFeatures, "+ptx80");
  EXPECT_EQ(target->fingerprint(), "gpu:sm_90:NVIDIA H100 80GB HBM3:132sm");
  EXPECT_EQ(llvm::json::Value(target->toJSON()), gpuDescription());
}

TEST(TargetTest, CpuDescriptionHasNoGpuObject) {
  Target cpu;
  cpu.cpu = "znver4";
  cpu.triple = "x86_64-unknown-linux-gnu";
  llvm::json::Value json = cpu.toJSON();
  EXPECT_EQ(json.getAsObject()->get("gpu"), nullptr);
  llvm::Expected<Target> back = Target::fromJSON(json);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_FALSE(back->isGpu());
  EXPECT_EQ(back->fingerprint().rfind("cpu:znver4", 0), 0u);
}

TEST(TargetTest, GpuErrorsNameTheField) {
  llvm::json::Value missing = gpuDescription();
  missing.getAsObject()->erase("gpu");
  EXPECT_NE(errorOf(missing).find("needs a 'gpu' object"), std::string::npos);

  llvm::json::Value capability = gpuDescription();
  (*capability.getAsObject()->getObject("gpu"))["compute_capability"] = "nine";
  EXPECT_NE(errorOf(capability).find("gpu.compute_capability"),
            std::string::npos);

  llvm::json::Value warp = gpuDescription();
  (*warp.getAsObject()->getObject("gpu"))["warp_size"] = 0;
  EXPECT_NE(errorOf(warp).find("gpu.warp_size"), std::string::npos);

  llvm::json::Value threads = gpuDescription();
  (*threads.getAsObject()->getObject("gpu"))["max_threads_per_block"] = 1000;
  EXPECT_NE(errorOf(threads).find("multiple"), std::string::npos);

  llvm::json::Value kind = gpuDescription();
  (*kind.getAsObject())["kind"] = "tpu";
  EXPECT_NE(errorOf(kind).find("'tpu' is not supported"), std::string::npos);
}

TEST(TargetTest, PtxFeaturesFollowTheComputeCapability) {
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(9, 0), "+ptx80");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(8, 0), "+ptx70");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(8, 6), "+ptx71");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(8, 9), "+ptx78");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(10, 0), "+ptx86");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(12, 0), "+ptx87");
  EXPECT_EQ(GpuTarget::ptxFeaturesFor(6, 1), "+ptx60");
}

TEST(TargetTest, GpuDeviceNumberMustBeANumber) {
  llvm::Expected<Target> target = Target::resolve("gpu:first");
  ASSERT_FALSE(bool(target));
  EXPECT_EQ(llvm::toString(target.takeError()),
            "target 'gpu:first': expected gpu:<device number>");
}

} // namespace
