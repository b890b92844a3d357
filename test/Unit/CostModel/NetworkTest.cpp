//===- NetworkTest.cpp - The tree-LSTM's forward and backward passes ------===//
//
// Every gradient of the hand-written backward pass is checked against
// central finite differences of the loss, in double precision.
//
//===----------------------------------------------------------------------===//

#include "Network.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>

using namespace tuner;

namespace {

using MatrixD = Network<double>::Matrix;

/// A tree with every kind of node: loops with computations only, loops
/// with child loops only, loops with both, and a body with both.
FeatureTree mixedTree() {
  FeatureTree tree;
  tree.numComputations = 5;
  auto node = [&](int loopId, std::vector<int> loops, std::vector<int> comps) {
    FeatureTree::Node n;
    n.loopId = loopId;
    n.loops = std::move(loops);
    n.computations = std::move(comps);
    tree.nodes.push_back(n);
  };
  node(3, {}, {3});      // 0: D
  node(1, {}, {1});      // 1: B
  node(0, {1}, {0, 2});  // 2: A, comps 0 and 2 around loop B
  node(2, {0}, {});      // 3: C, only loop D
  node(-1, {2, 3}, {4}); // 4: the body
  return tree;
}

NetworkShape smallShape(double dropout) {
  NetworkShape shape;
  shape.computationLayers = {5};
  shape.embedding = 3;
  shape.mergeLayers = {4};
  shape.regressionLayers = {4, 3};
  shape.dropout = dropout;
  return shape;
}

MatrixD randomInputs(unsigned computations, unsigned batch, uint64_t seed) {
  std::mt19937_64 rng(seed);
  MatrixD inputs(features::kNumFeatures, computations * batch);
  for (Eigen::Index i = 0; i < inputs.size(); ++i)
    inputs.data()[i] = double(rng() % 2001) / 1000.0 - 1.0;
  return inputs;
}

/// Checks every gradient that `network` holds against central finite
/// differences of `loss` (the loss of the same forward pass, without tape);
/// with `everyParameterLearns`, also that every parameter gets some gradient.
void expectGradientsMatchFiniteDifferences(Network<double> &network,
                                           const std::function<double()> &loss,
                                           bool everyParameterLearns) {
  size_t checked = 0;
  network.forEachParameter([&](const std::string &name, MatrixD &value,
                               MatrixD &grad) {
    if (everyParameterLearns)
      EXPECT_GT(grad.cwiseAbs().maxCoeff(), 0) << name << " gets no gradient";
    for (Eigen::Index i = 0; i < value.size(); ++i) {
      const double h = 1e-6;
      double saved = value.data()[i];
      value.data()[i] = saved + h;
      double up = loss();
      value.data()[i] = saved - h;
      double down = loss();
      value.data()[i] = saved;
      double numeric = (up - down) / (2 * h);
      double analytic = grad.data()[i];
      EXPECT_NEAR(analytic, numeric,
                  1e-7 +
                      1e-5 * std::max(std::fabs(analytic), std::fabs(numeric)))
          << name << "[" << i << "]";
      ++checked;
    }
  });
  EXPECT_EQ(checked, network.parameterCount());
}

void checkGradients(double dropout, bool normalized = false) {
  FeatureTree tree = mixedTree();
  const unsigned batch = 3;
  Network<double> network(smallShape(dropout));
  network.initialize(7);
  MatrixD inputs = randomInputs(tree.numComputations, batch, 11);
  if (normalized) {
    Network<double>::NormalizationFit fit;
    fit.add(randomInputs(tree.numComputations, batch, 12) * 3.0);
    network.setInputNormalization(fit.result());
  }
  // Targets far from the predictions (near 1 at initialization), so that
  // the loss is smooth around the current parameters.
  MatrixD targets(1, batch);
  targets << 0.25, 4.0, 9.0;
  const uint64_t dropoutSeed = 99;
  auto loss = [&](MatrixD *grad, Network<double>::Tape *tape) {
    std::mt19937_64 rng(dropoutSeed);
    MatrixD predictions = network.forward(tree, inputs, batch, tape,
                                          dropout > 0 ? &rng : nullptr);
    return mapeLoss<double>(predictions, targets, grad);
  };

  Network<double>::Tape tape;
  MatrixD predictionGrad;
  loss(&predictionGrad, &tape);
  network.zeroGradients();
  network.backward(tree, tape, predictionGrad);
  expectGradientsMatchFiniteDifferences(
      network, [&] { return loss(nullptr, nullptr); },
      /*everyParameterLearns=*/true);
}

TEST(NetworkTest, EveryGradientMatchesFiniteDifferences) { checkGradients(0); }

TEST(NetworkTest, RelativeGradientsMatchFiniteDifferences) {
  // Schedules of the mixed tree against a reference with another tree (as
  // when the schedules fuse loops that the untransformed program keeps
  // apart): the gradient flows through both passes.
  FeatureTree tree = mixedTree();
  FeatureTree referenceTree;
  referenceTree.numComputations = 2;
  FeatureTree::Node loop;
  loop.loopId = 0;
  loop.computations = {0};
  FeatureTree::Node body;
  body.loopId = -1;
  body.loops = {0};
  body.computations = {1};
  referenceTree.nodes = {loop, body};
  const unsigned batch = 3;
  Network<double> network(smallShape(0));
  network.initialize(8);
  MatrixD inputs = randomInputs(tree.numComputations, batch, 13);
  MatrixD referenceInputs = randomInputs(referenceTree.numComputations, 1, 14);
  MatrixD targets(1, batch);
  targets << 0.25, 4.0, 9.0;
  auto loss = [&](MatrixD *grad, Network<double>::RelativeTape *tape) {
    MatrixD predictions = network.forwardRelative(
        tree, inputs, batch, referenceTree, referenceInputs, tape);
    return logErrorLoss<double>(predictions, targets, grad);
  };
  Network<double>::RelativeTape tape;
  MatrixD predictionGrad;
  loss(&predictionGrad, &tape);
  network.zeroGradients();
  network.backwardRelative(tree, referenceTree, tape, predictionGrad);
  // The regression's output bias cancels in the difference of the scores:
  // it gets no gradient, so not every parameter learns here.
  expectGradientsMatchFiniteDifferences(
      network, [&] { return loss(nullptr, nullptr); },
      /*everyParameterLearns=*/false);

  // The reference against itself: a speedup of exactly 1.
  MatrixD self = network.forwardRelative(referenceTree, referenceInputs, 1,
                                         referenceTree, referenceInputs);
  EXPECT_DOUBLE_EQ(self(0, 0), 1.0);
}

TEST(NetworkTest, EveryGradientMatchesFiniteDifferencesWithNormalization) {
  checkGradients(0, /*normalized=*/true);
}

TEST(NetworkTest, InputNormalizationStandardizesEachFeature) {
  const unsigned f = features::kNumFeatures;
  Network<double>::Matrix a = Network<double>::Matrix::Zero(f, 2);
  Network<double>::Matrix b = Network<double>::Matrix::Zero(f, 2);
  // Feature 0 takes 1, 3, 5, 7: mean 4, standard deviation sqrt(5).
  a(0, 0) = 1, a(0, 1) = 3, b(0, 0) = 5, b(0, 1) = 7;
  // Feature 1 is 2 everywhere: centred only, its scale the minimum.
  a.row(1).setConstant(2);
  b.row(1).setConstant(2);
  Network<double>::NormalizationFit fit;
  fit.add(a);
  fit.add(b);
  Network<double>::InputNormalization n = fit.result();
  ASSERT_EQ(n.mean.size(), size_t(f));
  EXPECT_DOUBLE_EQ(n.mean[0], 4);
  EXPECT_NEAR(n.scale[0], std::sqrt(5.0), 1e-12);
  EXPECT_DOUBLE_EQ(n.mean[1], 2);
  EXPECT_DOUBLE_EQ(n.scale[1], Network<double>::kMinInputScale);

  // Forward with the normalization equals forward without it on inputs
  // standardized by hand.
  FeatureTree tree = mixedTree();
  const unsigned batch = 2;
  MatrixD inputs = randomInputs(tree.numComputations, batch, 21) * 5.0;
  Network<double> plain(smallShape(0));
  plain.initialize(4);
  Network<double> normalized = plain;
  normalized.setInputNormalization(n);
  MatrixD byHand = inputs;
  for (Eigen::Index i = 0; i < byHand.rows(); ++i)
    byHand.row(i) = (byHand.row(i).array() - n.mean[size_t(i)]) /
                    n.scale[size_t(i)];
  MatrixD expected = plain.forward(tree, byHand, batch);
  MatrixD actual = normalized.forward(tree, inputs, batch);
  for (unsigned k = 0; k < batch; ++k)
    EXPECT_NEAR(actual(0, k), expected(0, k), 1e-12 * expected(0, k));
  EXPECT_NE(actual(0, 0), plain.forward(tree, inputs, batch)(0, 0));
}

TEST(NetworkTest, PreparedInferenceReadsOnlyNonzerosAndAgrees) {
  // Computation vectors padded with zeros, as the feature layout makes
  // them (a few nonzero entries each), and a normalization that moves
  // every feature.
  FeatureTree tree = mixedTree();
  const unsigned batch = 3;
  MatrixD inputs = randomInputs(tree.numComputations, batch, 8);
  for (Eigen::Index i = 0; i < inputs.size(); ++i)
    if (i % 13 != 0)
      inputs.data()[i] = 0;
  Network<double>::InputNormalization n;
  for (unsigned f = 0; f < features::kNumFeatures; ++f) {
    n.mean.push_back(0.01 * (f % 7));
    n.scale.push_back(0.5 + 0.1 * (f % 5));
  }
  Network<double> dense(smallShape(0));
  dense.initialize(6);
  dense.setInputNormalization(n);
  Network<double> prepared = dense;
  prepared.prepareInference();
  MatrixD expected = dense.forward(tree, inputs, batch);
  MatrixD actual = prepared.forward(tree, inputs, batch);
  for (unsigned k = 0; k < batch; ++k)
    EXPECT_NEAR(actual(0, k), expected(0, k), 1e-12 * expected(0, k)) << k;
  // With a tape (training), the dense path runs and records what backward
  // needs.
  Network<double>::Tape tape;
  MatrixD taped = prepared.forward(tree, inputs, batch, &tape);
  EXPECT_EQ(tape.computation.inputs.size(), 2u);
  EXPECT_NEAR(taped(0, 0), expected(0, 0), 1e-12 * expected(0, 0));
  // Changing the normalization undoes the preparation: no stale weights.
  Network<double>::InputNormalization other = n;
  other.mean[0] += 1;
  prepared.setInputNormalization(other);
  dense.setInputNormalization(other);
  EXPECT_DOUBLE_EQ(prepared.forward(tree, inputs, batch)(0, 0),
                   dense.forward(tree, inputs, batch)(0, 0));
}

TEST(NetworkTest, EveryGradientMatchesFiniteDifferencesWithDropout) {
  checkGradients(0.3);
}

TEST(NetworkTest, LossGradient) {
  MatrixD predictions(1, 3), targets(1, 3), grad;
  predictions << 1.5, 0.5, 2.0;
  targets << 1.0, 1.0, 4.0;
  double loss = mapeLoss<double>(predictions, targets, &grad);
  EXPECT_DOUBLE_EQ(loss, (0.5 + 0.5 + 0.5) / 3);
  EXPECT_DOUBLE_EQ(grad(0, 0), 1.0 / 3);
  EXPECT_DOUBLE_EQ(grad(0, 1), -1.0 / 3);
  EXPECT_DOUBLE_EQ(grad(0, 2), -1.0 / 12);
}

TEST(NetworkTest, LogErrorLossGradient) {
  MatrixD predictions(1, 3), targets(1, 3), grad;
  predictions << 2.0, 0.5, 4.0;
  targets << 1.0, 1.0, 4.0;
  double loss = logErrorLoss<double>(predictions, targets, &grad);
  // Speedup and slowdown by the same factor cost the same.
  EXPECT_DOUBLE_EQ(loss, 2 * std::log(2.0) / 3);
  EXPECT_DOUBLE_EQ(grad(0, 0), 1.0 / 2.0 / 3);
  EXPECT_DOUBLE_EQ(grad(0, 1), -1.0 / 0.5 / 3);
  EXPECT_DOUBLE_EQ(grad(0, 2), 0);
  // Against a central difference where the loss is smooth.
  for (Eigen::Index i = 0; i < 2; ++i) {
    const double h = 1e-7;
    MatrixD up = predictions, down = predictions;
    up(0, i) += h;
    down(0, i) -= h;
    double numeric = (logErrorLoss<double>(up, targets, nullptr) -
                      logErrorLoss<double>(down, targets, nullptr)) /
                     (2 * h);
    EXPECT_NEAR(grad(0, i), numeric, 1e-6) << i;
  }
  EXPECT_EQ(trainingLoss<double>(TrainingLoss::LogError, predictions, targets,
                                 nullptr),
            loss);
}

TEST(NetworkTest, BatchedForwardEqualsOneSampleAtATime) {
  FeatureTree tree = mixedTree();
  const unsigned batch = 4, comps = tree.numComputations;
  Network<float> network(smallShape(0.2));
  network.initialize(3);
  Network<float>::Matrix inputs = randomInputs(comps, batch, 5).cast<float>();
  Network<float>::Matrix all = network.forward(tree, inputs, batch);
  ASSERT_EQ(all.cols(), Eigen::Index(batch));
  for (unsigned b = 0; b < batch; ++b) {
    Network<float>::Matrix one(inputs.rows(), comps);
    for (unsigned c = 0; c < comps; ++c)
      one.col(c) = inputs.col(c * batch + b);
    Network<float>::Matrix single = network.forward(tree, one, 1);
    EXPECT_NEAR(single(0, 0), all(0, b), 1e-5f * all(0, b)) << b;
    EXPECT_GT(all(0, b), 0);
  }
  // Samples differ, so do their predictions.
  EXPECT_NE(all(0, 0), all(0, 1));
}

TEST(NetworkTest, InitializationIsDeterministic) {
  Network<float> a(smallShape(0)), b(smallShape(0)), c(smallShape(0));
  a.initialize(1);
  b.initialize(1);
  c.initialize(2);
  std::vector<Network<float>::Matrix> va, vb, vc;
  a.forEachParameter([&](const std::string &, const Network<float>::Matrix &m) {
    va.push_back(m);
  });
  b.forEachParameter([&](const std::string &, const Network<float>::Matrix &m) {
    vb.push_back(m);
  });
  c.forEachParameter([&](const std::string &, const Network<float>::Matrix &m) {
    vc.push_back(m);
  });
  ASSERT_EQ(va.size(), vb.size());
  for (size_t i = 0; i < va.size(); ++i)
    EXPECT_EQ(va[i], vb[i]);
  EXPECT_NE(va.front(), vc.front());
}

} // namespace
