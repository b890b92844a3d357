//===- Network.cpp - The tree-LSTM, forward and backward ------------------===//
//
// Forward: computation vectors -> embedding MLP (all computations of all
// samples in one product); per tree node, children first: an LSTM over the
// embeddings of the computations directly in the node, an LSTM over the
// embeddings of its child loops, and a merge MLP over both final hidden
// states; the root's embedding -> regression MLP -> exp -> speedup.
//
// Backward retraces these steps in reverse. Every computation is the child
// of exactly one node, so the computation LSTM's input products of all
// steps are one product in each direction.
//
//===----------------------------------------------------------------------===//

#include "Network.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace tuner;

namespace {
/// Logits beyond this magnitude are clamped before exp (speedups of e^30
/// are not measurements); the gradient through a clamped logit is zero.
constexpr double kMaxLogit = 30;

/// A double in [0, 1) from 53 random bits (the same on every platform).
double uniform01(std::mt19937_64 &rng) {
  return double(rng() >> 11) * 0x1.0p-53;
}

/// Per feature of the layout: whether it is numeric (transformed by a signed
/// log) rather than boolean.
const std::vector<bool> &numericFeatures() {
  static const std::vector<bool> numeric = [] {
    std::vector<bool> result;
    for (const FeatureInfo &feature : featureList())
      result.push_back(feature.kind == FeatureKind::Numeric);
    return result;
  }();
  return numeric;
}

/// What the network reads of raw feature `index` of value `x`: packInputs'
/// transformation.
template <typename T> T transformed(unsigned index, float x) {
  if (x == 0 || !numericFeatures()[index])
    return T(x);
  T magnitude = std::log1p(std::fabs(T(x)));
  return x < 0 ? -magnitude : magnitude;
}

template <typename Derived>
Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic>
sigmoid(const Eigen::MatrixBase<Derived> &x) {
  return ((-x.array()).exp() + 1).inverse().matrix();
}

/// exp of x clamped to [-kMaxLogit, kMaxLogit].
template <typename Derived>
Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic>
clampedExp(const Eigen::MatrixBase<Derived> &x) {
  using T = typename Derived::Scalar;
  return x.array().max(T(-kMaxLogit)).min(T(kMaxLogit)).exp().matrix();
}

/// The gradient of x given that of clampedExp(x) = `value`: zero where x
/// was clamped.
template <typename Matrix>
Matrix clampedExpGrad(const Matrix &valueGrad, const Matrix &value,
                      const Matrix &x) {
  using T = typename Matrix::Scalar;
  return valueGrad.cwiseProduct(value).cwiseProduct(
      (x.array().abs() < T(kMaxLogit)).template cast<T>().matrix());
}
} // namespace

template <typename T>
Network<T>::Network(const NetworkShape &networkShape) : shape(networkShape) {
  auto makeMLP = [](unsigned input, const std::vector<unsigned> &hidden,
                    unsigned output, bool linearOutput) {
    MLP mlp;
    mlp.linearOutput = linearOutput;
    std::vector<unsigned> sizes = {input};
    sizes.insert(sizes.end(), hidden.begin(), hidden.end());
    sizes.push_back(output);
    for (size_t l = 0; l + 1 < sizes.size(); ++l) {
      Dense layer;
      layer.weight = Matrix::Zero(sizes[l + 1], sizes[l]);
      layer.bias = Matrix::Zero(sizes[l + 1], 1);
      layer.weightGrad = layer.weight;
      layer.biasGrad = layer.bias;
      mlp.layers.push_back(std::move(layer));
    }
    return mlp;
  };
  unsigned e = shape.embedding;
  computation = makeMLP(features::kNumFeatures, shape.computationLayers, e,
                        /*linearOutput=*/false);
  merge = makeMLP(2 * e, shape.mergeLayers, e, /*linearOutput=*/false);
  regression = makeMLP(e, shape.regressionLayers, 1, /*linearOutput=*/true);
  for (LSTM *cell : {&computationLSTM, &loopLSTM}) {
    cell->inputWeight = Matrix::Zero(4 * e, e);
    cell->hiddenWeight = Matrix::Zero(4 * e, e);
    cell->bias = Matrix::Zero(4 * e, 1);
    cell->inputWeightGrad = cell->inputWeight;
    cell->hiddenWeightGrad = cell->hiddenWeight;
    cell->biasGrad = cell->bias;
  }
}

template <typename T>
void Network<T>::forEachParameter(
    llvm::function_ref<void(const std::string &, Matrix &, Matrix &)> fn) {
  auto visitMLP = [&](llvm::StringRef name, MLP &mlp) {
    for (auto [l, layer] : llvm::enumerate(mlp.layers)) {
      fn(llvm::formatv("{0}.{1}.weight", name, l).str(), layer.weight,
         layer.weightGrad);
      fn(llvm::formatv("{0}.{1}.bias", name, l).str(), layer.bias,
         layer.biasGrad);
    }
  };
  auto visitLSTM = [&](llvm::StringRef name, LSTM &cell) {
    fn((name + ".input_weight").str(), cell.inputWeight, cell.inputWeightGrad);
    fn((name + ".hidden_weight").str(), cell.hiddenWeight,
       cell.hiddenWeightGrad);
    fn((name + ".bias").str(), cell.bias, cell.biasGrad);
  };
  visitMLP("computation", computation);
  visitLSTM("computation_lstm", computationLSTM);
  visitLSTM("loop_lstm", loopLSTM);
  visitMLP("merge", merge);
  visitMLP("regression", regression);
}

template <typename T>
void Network<T>::forEachParameter(
    llvm::function_ref<void(const std::string &, const Matrix &)> fn) const {
  // The visitor does not modify the network; it only lends out references.
  const_cast<Network<T> *>(this)->forEachParameter(
      [&](const std::string &name, Matrix &value, Matrix &) {
        fn(name, value);
      });
}

template <typename T> void Network<T>::prepareInference() {
  Eigen::Index e = shape.embedding;
  auto reorder = [&](const Matrix &m) {
    Matrix r(m.rows(), m.cols());
    r << m.topRows(e), m.middleRows(2 * e, e), m.bottomRows(e),
        m.middleRows(e, e);
    return r;
  };
  for (auto [cell, copy] :
       {std::pair{&computationLSTM, &inferenceComputationLSTM},
        std::pair{&loopLSTM, &inferenceLoopLSTM}}) {
    copy->inputWeight = reorder(cell->inputWeight);
    copy->hiddenWeight = reorder(cell->hiddenWeight);
    copy->bias = reorder(cell->bias);
  }
  const Dense &first = computation.layers.front();
  sparseInput.weight = first.weight;
  sparseInput.bias = first.bias;
  if (normalization.empty())
    return;
  for (Eigen::Index j = 0; j < first.weight.cols(); ++j) {
    sparseInput.weight.col(j) /= normalization.scale[j];
    sparseInput.bias -= sparseInput.weight.col(j) * normalization.mean[j];
  }
}

template <typename T>
typename Network<T>::Matrix
Network<T>::sparseFirstLayer(const Matrix &inputs) const {
  Matrix pre(sparseInput.weight.rows(), inputs.cols());
  for (Eigen::Index c = 0; c < inputs.cols(); ++c) {
    auto column = pre.col(c);
    column = sparseInput.bias.col(0);
    const T *x = inputs.col(c).data();
    for (Eigen::Index j = 0; j < inputs.rows(); ++j)
      if (x[j] != T(0))
        column.noalias() += x[j] * sparseInput.weight.col(j);
  }
  return pre;
}

template <typename T> void Network<T>::initialize(uint64_t seed) {
  sparseInput = Dense();
  std::mt19937_64 rng(seed);
  forEachParameter([&](const std::string &name, Matrix &value, Matrix &) {
    if (value.cols() == 1) { // A bias.
      value.setZero();
      return;
    }
    double limit = std::sqrt(6.0 / double(value.rows() + value.cols()));
    for (Eigen::Index j = 0; j < value.cols(); ++j)
      for (Eigen::Index i = 0; i < value.rows(); ++i)
        value(i, j) = T((2 * uniform01(rng) - 1) * limit);
  });
}

template <typename T> void Network<T>::zeroGradients() {
  forEachParameter(
      [](const std::string &, Matrix &, Matrix &grad) { grad.setZero(); });
}

template <typename T> size_t Network<T>::parameterCount() {
  size_t count = 0;
  forEachParameter([&](const std::string &, Matrix &value, Matrix &) {
    count += value.size();
  });
  return count;
}

template <typename T>
typename Network<T>::Matrix
Network<T>::packInputs(llvm::ArrayRef<const ProgramFeatures *> schedules) {
  constexpr unsigned f = features::kNumFeatures;
  const std::vector<bool> &numeric = numericFeatures();
  size_t batch = schedules.size();
  size_t computations = batch ? schedules.front()->tree.numComputations : 0;
  Matrix inputs = Matrix::Zero(f, computations * batch);
  for (size_t b = 0; b < batch; ++b)
    for (size_t c = 0; c < computations; ++c) {
      const float *raw = schedules[b]->values.data() + c * f;
      T *column = inputs.col(c * batch + b).data();
      for (unsigned i = 0; i < f; ++i) {
        float x = raw[i];
        if (x == 0)
          continue;
        if (!numeric[i]) {
          column[i] = T(x);
          continue;
        }
        T magnitude = std::log1p(std::fabs(T(x)));
        column[i] = x < 0 ? -magnitude : magnitude;
      }
    }
  return inputs;
}

template <typename T>
void Network<T>::NormalizationFit::add(const Matrix &inputs) {
  if (sum.empty()) {
    sum.assign(size_t(inputs.rows()), 0.0);
    squares.assign(size_t(inputs.rows()), 0.0);
  }
  for (Eigen::Index j = 0; j < inputs.cols(); ++j)
    for (Eigen::Index i = 0; i < inputs.rows(); ++i) {
      double x = double(inputs(i, j));
      sum[size_t(i)] += x;
      squares[size_t(i)] += x * x;
    }
  count += size_t(inputs.cols());
}

template <typename T>
typename Network<T>::InputNormalization
Network<T>::NormalizationFit::result() const {
  InputNormalization n;
  for (size_t i = 0; i < sum.size(); ++i) {
    double mean = sum[i] / double(count);
    double variance = std::max(0.0, squares[i] / double(count) - mean * mean);
    n.mean.push_back(T(mean));
    n.scale.push_back(T(std::max(std::sqrt(variance), kMinInputScale)));
  }
  return n;
}

//===----------------------------------------------------------------------===//
// MLP
//===----------------------------------------------------------------------===//

template <typename T>
typename Network<T>::Matrix
Network<T>::forwardMLP(const MLP &mlp, const Matrix &x, MLPTape *tape,
                       std::mt19937_64 *dropout, const Matrix *firstPre) const {
  Matrix a;
  if (!firstPre)
    a = x;
  for (auto [l, layer] : llvm::enumerate(mlp.layers)) {
    Matrix pre;
    if (l == 0 && firstPre) {
      pre = *firstPre;
    } else {
      pre = layer.weight * a;
      pre.colwise() += layer.bias.col(0);
    }
    if (tape)
      tape->inputs.push_back(std::move(a));
    if (mlp.linearOutput && l + 1 == mlp.layers.size()) {
      a = pre;
      if (tape) {
        tape->preActivations.push_back(std::move(pre));
        tape->masks.emplace_back();
      }
      continue;
    }
    // ELU(x) = x for x > 0, e^x - 1 otherwise; written without a select so
    // that Eigen vectorizes it.
    a = (pre.array().max(T(0)) + (pre.array().min(T(0)).exp() - T(1))).matrix();
    Matrix mask;
    if (dropout && shape.dropout > 0) {
      T keep = T(1 / (1 - shape.dropout));
      mask.resize(a.rows(), a.cols());
      for (Eigen::Index i = 0; i < mask.size(); ++i)
        mask.data()[i] = uniform01(*dropout) < shape.dropout ? T(0) : keep;
      a = a.cwiseProduct(mask);
    }
    if (tape) {
      tape->preActivations.push_back(std::move(pre));
      tape->masks.push_back(std::move(mask));
    }
  }
  return a;
}

template <typename T>
typename Network<T>::Matrix
Network<T>::backwardMLP(MLP &mlp, const MLPTape &tape, Matrix grad,
                        bool inputGrad) {
  for (size_t l = mlp.layers.size(); l-- > 0;) {
    Dense &layer = mlp.layers[l];
    const Matrix &pre = tape.preActivations[l];
    if (!(mlp.linearOutput && l + 1 == mlp.layers.size())) {
      if (tape.masks[l].size())
        grad = grad.cwiseProduct(tape.masks[l]);
      // ELU'(x) = 1 for x > 0, e^x otherwise.
      grad = grad.cwiseProduct(pre.array().min(T(0)).exp().matrix());
    }
    layer.weightGrad.noalias() += grad * tape.inputs[l].transpose();
    layer.biasGrad += grad.rowwise().sum();
    if (l == 0 && !inputGrad)
      return Matrix();
    grad = layer.weight.transpose() * grad;
  }
  return grad;
}

//===----------------------------------------------------------------------===//
// LSTM
//===----------------------------------------------------------------------===//

template <typename T>
void Network<T>::step(const LSTM &cell, const Matrix &projection, Matrix &h,
                      Matrix &c, StepTape *tape) const {
  Eigen::Index e = shape.embedding;
  Matrix gates = projection;
  if (h.size()) // An empty h (and c) is the zero initial state.
    gates.noalias() += cell.hiddenWeight * h;
  Matrix i = sigmoid(gates.topRows(e));
  Matrix f = sigmoid(gates.middleRows(e, e));
  Matrix g = gates.middleRows(2 * e, e).array().tanh().matrix();
  Matrix o = sigmoid(gates.bottomRows(e));
  Matrix next = i.cwiseProduct(g);
  if (c.size())
    next += f.cwiseProduct(c);
  Matrix tanhC = next.array().tanh().matrix();
  Matrix hNext = o.cwiseProduct(tanhC);
  if (tape) {
    tape->hPrev = std::move(h);
    tape->cPrev = std::move(c);
    tape->i = std::move(i);
    tape->f = std::move(f);
    tape->g = std::move(g);
    tape->o = std::move(o);
    tape->c = next;
    tape->tanhC = std::move(tanhC);
  }
  h = std::move(hNext);
  c = std::move(next);
}

template <typename T>
void Network<T>::backwardSteps(
    LSTM &cell, const std::vector<StepTape> &steps, Matrix dh,
    llvm::function_ref<void(size_t, const Matrix &)> projectionGrad) {
  Eigen::Index e = shape.embedding;
  Matrix dc;
  for (size_t t = steps.size(); t-- > 0;) {
    const StepTape &s = steps[t];
    Matrix dTanhC = dh.cwiseProduct(s.o).cwiseProduct(
        (T(1) - s.tanhC.array().square()).matrix());
    if (dc.size())
      dTanhC += dc;
    Matrix dGates(4 * e, dh.cols());
    // d pre-activation = d activation * activation'.
    dGates.topRows(e) = dTanhC.cwiseProduct(s.g).cwiseProduct(
        (s.i.array() * (T(1) - s.i.array())).matrix());
    if (s.cPrev.size())
      dGates.middleRows(e, e) = dTanhC.cwiseProduct(s.cPrev).cwiseProduct(
          (s.f.array() * (T(1) - s.f.array())).matrix());
    else
      dGates.middleRows(e, e).setZero();
    dGates.middleRows(2 * e, e) = dTanhC.cwiseProduct(s.i).cwiseProduct(
        (T(1) - s.g.array().square()).matrix());
    dGates.bottomRows(e) = dh.cwiseProduct(s.tanhC).cwiseProduct(
        (s.o.array() * (T(1) - s.o.array())).matrix());
    projectionGrad(t, dGates);
    if (!s.hPrev.size())
      break; // The first step: the initial state is a constant.
    cell.hiddenWeightGrad.noalias() += dGates * s.hPrev.transpose();
    dh = cell.hiddenWeight.transpose() * dGates;
    dc = dTanhC.cwiseProduct(s.f);
  }
}

//===----------------------------------------------------------------------===//
// The tree
//===----------------------------------------------------------------------===//

template <typename T>
typename Network<T>::Matrix
Network<T>::forward(const FeatureTree &tree, const Matrix &inputs,
                    unsigned batch, Tape *tape,
                    std::mt19937_64 *dropout) const {
  Matrix logits = forwardLogits(tree, inputs, batch, tape, dropout);
  Matrix predictions = clampedExp(logits);
  if (tape)
    tape->predictions = predictions;
  return predictions;
}

template <typename T>
typename Network<T>::Matrix
Network<T>::relativeSpeedups(const Matrix &logits, T reference) {
  return clampedExp((logits.array() - reference).matrix());
}

template <typename T>
typename Network<T>::Matrix Network<T>::forwardRelative(
    const FeatureTree &tree, const Matrix &inputs, unsigned batch,
    const FeatureTree &referenceTree, const Matrix &referenceInputs,
    RelativeTape *tape, std::mt19937_64 *dropout) const {
  Matrix logits =
      forwardLogits(tree, inputs, batch, tape ? &tape->schedules : nullptr,
                    dropout);
  Matrix reference =
      forwardLogits(referenceTree, referenceInputs, 1,
                    tape ? &tape->reference : nullptr, dropout);
  Matrix differences = (logits.array() - reference(0, 0)).matrix();
  Matrix predictions = clampedExp(differences);
  if (tape) {
    tape->differences = std::move(differences);
    tape->predictions = predictions;
  }
  return predictions;
}

template <typename T>
void Network<T>::backwardRelative(const FeatureTree &tree,
                                  const FeatureTree &referenceTree,
                                  const RelativeTape &tape,
                                  const Matrix &predictionGrad) {
  Matrix dDifferences =
      clampedExpGrad(predictionGrad, tape.predictions, tape.differences);
  backwardLogits(tree, tape.schedules, dDifferences);
  Matrix dReference(1, 1);
  dReference(0, 0) = -dDifferences.sum();
  backwardLogits(referenceTree, tape.reference, dReference);
}

template <typename T>
typename Network<T>::Matrix
Network<T>::forwardLogits(const FeatureTree &tree, const Matrix &inputs,
                          unsigned batch, Tape *tape,
                          std::mt19937_64 *dropout) const {
  Eigen::Index e = shape.embedding;
  Matrix embeddings;
  if (!tape && !dropout && sparseInput.weight.size()) {
    // Inference, prepared: the standardization is in the first layer.
    Matrix first = sparseFirstLayer(inputs);
    embeddings = forwardMLP(computation, Matrix(), nullptr, nullptr, &first);
  } else if (normalization.empty()) {
    embeddings = forwardMLP(computation, inputs,
                            tape ? &tape->computation : nullptr, dropout);
  } else {
    Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> mean(
        normalization.mean.data(), Eigen::Index(normalization.mean.size()));
    Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> scale(
        normalization.scale.data(), Eigen::Index(normalization.scale.size()));
    Matrix normalized =
        ((inputs.colwise() - mean).array().colwise() / scale.array()).matrix();
    embeddings = forwardMLP(computation, normalized,
                            tape ? &tape->computation : nullptr, dropout);
  }
  Matrix projections = computationLSTM.inputWeight * embeddings;
  projections.colwise() += computationLSTM.bias.col(0);

  std::vector<Matrix> nodeEmbeddings(tree.nodes.size());
  if (tape)
    tape->nodes.assign(tree.nodes.size(), NodeTape());
  for (auto [n, node] : llvm::enumerate(tree.nodes)) {
    NodeTape *nodeTape = tape ? &tape->nodes[n] : nullptr;
    Matrix merged = Matrix::Zero(2 * e, batch);
    Matrix h, c;
    for (int comp : node.computations) {
      StepTape *stepTape = nullptr;
      if (nodeTape)
        stepTape = &nodeTape->computationSteps.emplace_back();
      step(computationLSTM, projections.middleCols(comp * batch, batch), h, c,
           stepTape);
    }
    if (h.size())
      merged.topRows(e) = h;
    h.resize(0, 0);
    c.resize(0, 0);
    for (int child : node.loops) {
      Matrix projection = loopLSTM.inputWeight * nodeEmbeddings[child];
      projection.colwise() += loopLSTM.bias.col(0);
      StepTape *stepTape = nullptr;
      if (nodeTape)
        stepTape = &nodeTape->loopSteps.emplace_back();
      step(loopLSTM, projection, h, c, stepTape);
    }
    if (h.size())
      merged.bottomRows(e) = h;
    nodeEmbeddings[n] = forwardMLP(
        merge, merged, nodeTape ? &nodeTape->merge : nullptr, dropout);
  }

  Matrix logits = forwardMLP(regression, nodeEmbeddings.back(),
                             tape ? &tape->regression : nullptr, dropout);
  if (tape) {
    tape->embeddings = std::move(embeddings);
    tape->nodeEmbeddings = std::move(nodeEmbeddings);
    tape->logits = logits;
  }
  return logits;
}

template <typename T>
void Network<T>::backward(const FeatureTree &tree, const Tape &tape,
                          const Matrix &predictionGrad) {
  backwardLogits(tree, tape,
                 clampedExpGrad(predictionGrad, tape.predictions, tape.logits));
}

template <typename T>
void Network<T>::backwardLogits(const FeatureTree &tree, const Tape &tape,
                                const Matrix &dLogits) {
  Eigen::Index e = shape.embedding;
  Eigen::Index batch = dLogits.cols();
  std::vector<Matrix> nodeGrads(tree.nodes.size());
  nodeGrads.back() = backwardMLP(regression, tape.regression, dLogits);

  Matrix projectionGrads = Matrix::Zero(4 * e, tape.embeddings.cols());
  for (size_t n = tree.nodes.size(); n-- > 0;) {
    const FeatureTree::Node &node = tree.nodes[n];
    const NodeTape &nodeTape = tape.nodes[n];
    if (!nodeGrads[n].size())
      nodeGrads[n] = Matrix::Zero(e, batch);
    Matrix dMerged = backwardMLP(merge, nodeTape.merge, nodeGrads[n]);
    backwardSteps(loopLSTM, nodeTape.loopSteps, dMerged.bottomRows(e),
                  [&](size_t t, const Matrix &dGates) {
                    int child = node.loops[t];
                    const Matrix &x = tape.nodeEmbeddings[child];
                    loopLSTM.inputWeightGrad.noalias() +=
                        dGates * x.transpose();
                    loopLSTM.biasGrad += dGates.rowwise().sum();
                    Matrix dx = loopLSTM.inputWeight.transpose() * dGates;
                    if (nodeGrads[child].size())
                      nodeGrads[child] += dx;
                    else
                      nodeGrads[child] = std::move(dx);
                  });
    backwardSteps(computationLSTM, nodeTape.computationSteps,
                  dMerged.topRows(e), [&](size_t t, const Matrix &dGates) {
                    projectionGrads.middleCols(node.computations[t] * batch,
                                               batch) += dGates;
                  });
  }
  computationLSTM.inputWeightGrad.noalias() +=
      projectionGrads * tape.embeddings.transpose();
  computationLSTM.biasGrad += projectionGrads.rowwise().sum();
  Matrix dEmbeddings =
      computationLSTM.inputWeight.transpose() * projectionGrads;
  backwardMLP(computation, tape.computation, std::move(dEmbeddings),
              /*inputGrad=*/false);
}

//===----------------------------------------------------------------------===//
// Inference on distinct subtrees
//===----------------------------------------------------------------------===//

void InferenceBatch::appendKeys(const ProgramFeatures &reference,
                                llvm::ArrayRef<float> values,
                                unsigned computations,
                                std::vector<uint32_t> &keys,
                                std::vector<size_t> &keyStart) {
  constexpr unsigned f = features::kNumFeatures;
  constexpr unsigned chunk = 16;
  assert(values.size() == size_t(computations) * f &&
         reference.values.size() == values.size() && "not one program's");
  for (unsigned c = 0; c < computations; ++c) {
    keyStart.push_back(keys.size());
    keys.push_back(c);
    const float *x = values.data() + size_t(c) * f;
    const float *r = reference.values.data() + size_t(c) * f;
    auto scan = [&](unsigned begin, unsigned end) {
      for (unsigned i = begin; i < end; ++i)
        if (llvm::bit_cast<uint32_t>(x[i]) != llvm::bit_cast<uint32_t>(r[i])) {
          keys.push_back(i);
          keys.push_back(llvm::bit_cast<uint32_t>(x[i]));
        }
    };
    // Most of a vector equals the reference's: compare chunks of bits
    // (vectorized) and look into the chunks that differ.
    unsigned i = 0;
    for (; i + chunk <= f; i += chunk) {
      uint32_t xs[chunk], rs[chunk], differs = 0;
      std::memcpy(xs, x + i, sizeof(xs));
      std::memcpy(rs, r + i, sizeof(rs));
      for (unsigned k = 0; k < chunk; ++k)
        differs |= xs[k] ^ rs[k];
      if (differs)
        scan(i, i + chunk);
    }
    scan(i, f);
  }
}

InferenceBatch::InferenceBatch(const ProgramFeatures &reference,
                               llvm::ArrayRef<const ProgramFeatures *> schedules)
    : tree(&schedules.front()->tree) {
  // Every computation vector of every schedule as a key.
  unsigned computations = tree->numComputations;
  std::vector<uint32_t> keys;
  keys.reserve(schedules.size() * computations * 32);
  std::vector<size_t> keyStart;
  keyStart.reserve(schedules.size() * computations + 1);
  for (const ProgramFeatures *schedule : schedules)
    appendKeys(reference, schedule->values, computations, keys, keyStart);
  keyStart.push_back(keys.size());
  std::vector<llvm::ArrayRef<uint32_t>> columnKeys;
  columnKeys.reserve(keyStart.size() - 1);
  for (size_t j = 0; j + 1 < keyStart.size(); ++j)
    columnKeys.push_back(llvm::ArrayRef(keys).slice(
        keyStart[j], keyStart[j + 1] - keyStart[j]));
  build(reference, schedules.size(), columnKeys);
}

InferenceBatch::InferenceBatch(const ProgramFeatures &reference,
                               const FeatureTree &tree, size_t samples,
                               llvm::ArrayRef<llvm::ArrayRef<uint32_t>> keys)
    : tree(&tree) {
  build(reference, samples, keys);
}

void InferenceBatch::build(const ProgramFeatures &reference, size_t samples,
                           llvm::ArrayRef<llvm::ArrayRef<uint32_t>> keys) {
  constexpr unsigned f = features::kNumFeatures;
  unsigned computations = tree->numComputations;
  assert(keys.size() == samples * computations && "keys of whole schedules");

  // The distinct computation vectors, with their transformed differences.
  std::vector<unsigned> columnOf(samples * computations);
  llvm::DenseMap<llvm::ArrayRef<uint32_t>, unsigned> columns;
  columnStart.push_back(0);
  // Computation by computation: the distinct vectors of computation c are
  // [computationStart[c], computationStart[c + 1]).
  std::vector<double> referenceTransformed;
  for (unsigned c = 0; c < computations; ++c) {
    computationStart.push_back(unsigned(columnComputation.size()));
    const float *r = reference.values.data() + size_t(c) * f;
    referenceTransformed.assign(f, std::nan(""));
    for (size_t b = 0; b < samples; ++b) {
      size_t j = b * computations + c;
      llvm::ArrayRef<uint32_t> key = keys[j];
      auto [it, inserted] =
          columns.try_emplace(key, unsigned(columnComputation.size()));
      columnOf[j] = it->second;
      if (!inserted)
        continue;
      columnComputation.push_back(c);
      for (size_t k = 1; k + 1 < key.size(); k += 2) {
        unsigned index = key[k];
        float x = llvm::bit_cast<float>(key[k + 1]);
        diffIndex.push_back(index);
        // The reference's transformed entry, once per computation and
        // entry (the same value transformed<double> gives).
        double &base = referenceTransformed[index];
        if (std::isnan(base))
          base = transformed<double>(index, r[index]);
        diffValue.push_back(float(transformed<double>(index, x) - base));
      }
      columnStart.push_back(uint32_t(diffIndex.size()));
    }
  }
  computationStart.push_back(unsigned(columnComputation.size()));

  // The distinct subtrees, children first.
  nodes.resize(tree->nodes.size());
  std::vector<std::vector<unsigned>> subtreeOf(tree->nodes.size());
  std::vector<unsigned> nodeKeys;
  for (auto [n, treeNode] : llvm::enumerate(tree->nodes)) {
    Node &node = nodes[n];
    size_t k = treeNode.computations.size(), l = treeNode.loops.size();
    size_t width = k + l;
    subtreeOf[n].resize(samples);
    nodeKeys.resize(samples * width);
    for (size_t b = 0; b < samples; ++b) {
      unsigned *key = nodeKeys.data() + b * width;
      for (size_t t = 0; t < k; ++t)
        key[t] = columnOf[b * computations + treeNode.computations[t]];
      for (size_t t = 0; t < l; ++t)
        key[k + t] = subtreeOf[treeNode.loops[t]][b];
    }
    if (width == 0) { // Nothing below: one subtree.
      node.count = 1;
      continue;
    }
    llvm::DenseMap<llvm::ArrayRef<unsigned>, unsigned> distinct;
    for (size_t b = 0; b < samples; ++b) {
      llvm::ArrayRef<unsigned> key(nodeKeys.data() + b * width, width);
      auto [it, inserted] = distinct.try_emplace(key, node.count);
      subtreeOf[n][b] = it->second;
      if (!inserted)
        continue;
      ++node.count;
      node.computations.insert(node.computations.end(), key.begin(),
                               key.begin() + k);
      node.children.insert(node.children.end(), key.begin() + k, key.end());
    }
  }
  sampleRoot = std::move(subtreeOf.back());
}

template <typename T>
typename Network<T>::Matrix
Network<T>::referencePreActivations(const ProgramFeatures &reference) const {
  return sparseFirstLayer(packInputs({&reference}));
}

namespace {
/// Buffers of inferLogits: slots 0 and 1 alternate as the input and output
/// of an MLP's layers; the others have one role each.
enum Slot : size_t {
  kPingPong = 0,
  kProjections = 2,
  kGates,
  kHidden,
  kCell,
  kFirstNodeSlot
};
} // namespace

/// Sets every column of `m` to `column` (what replicate does, without an
/// integer division per entry).
template <typename M, typename V> static void setColumns(M &&m, const V &column) {
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    m.col(j) = column;
}

template <typename T>
typename Network<T>::MatrixMap
Network<T>::Workspace::get(size_t slot, Eigen::Index rows, Eigen::Index cols) {
  if (buffers.size() <= slot)
    buffers.resize(slot + 1); // Moves the vectors, not their elements.
  auto &buffer = buffers[slot];
  if (buffer.size() < size_t(rows * cols)) {
    // Nothing to keep: grow without copying the old values.
    buffer.clear();
    buffer.resize(std::max(size_t(rows * cols), 2 * buffer.capacity()));
  }
  return MatrixMap(buffer.data(), rows, cols);
}

template <typename T>
typename Network<T>::MatrixMap
Network<T>::inferMLP(const MLP &mlp, Workspace &ws, size_t &slot,
                     Eigen::Index cols, bool firstGiven) const {
  MatrixMap a = ws.get(slot, mlp.layers.front().weight.rows(), cols);
  for (auto [l, layer] : llvm::enumerate(mlp.layers)) {
    if (l > 0 || !firstGiven) {
      MatrixMap in = ws.get(slot, layer.weight.cols(), cols);
      slot ^= 1;
      new (&a) MatrixMap(ws.get(slot, layer.weight.rows(), cols));
      setColumns(a, layer.bias.col(0));
      a.noalias() += layer.weight * in;
    }
    if (mlp.linearOutput && l + 1 == mlp.layers.size())
      break;
    // ELU, in place.
    a = (a.array().max(T(0)) + (a.array().min(T(0)).exp() - T(1))).matrix();
  }
  return a;
}

template <typename T>
void Network<T>::inferStep(const LSTM &cell, MatrixMap &gates, MatrixMap &h,
                           MatrixMap &c, bool first) const {
  Eigen::Index e = shape.embedding;
  auto sigmoidOf = [](auto rows) {
    return ((-rows.array()).exp() + T(1)).inverse();
  };
  // Gates in the order i, g, o, f.
  if (first) {
    // The initial state is zero: no hidden product, no forget gate.
    c = (sigmoidOf(gates.topRows(e)) * gates.middleRows(e, e).array().tanh())
            .matrix();
  } else {
    gates.noalias() += cell.hiddenWeight * h;
    c = (sigmoidOf(gates.topRows(e)) * gates.middleRows(e, e).array().tanh() +
         sigmoidOf(gates.bottomRows(e)) * c.array())
            .matrix();
  }
  h = (sigmoidOf(gates.middleRows(2 * e, e)) * c.array().tanh()).matrix();
}

template <typename T>
template <typename In, typename Out>
void Network<T>::inferProjection(const LSTM &cell, const In &x, Out &&out,
                                 bool first) const {
  Eigen::Index rows = (first ? 3 : 4) * shape.embedding;
  auto top = out.topRows(rows);
  setColumns(top, cell.bias.col(0).head(rows));
  top.noalias() += cell.inputWeight.topRows(rows) * x;
}

template <typename T>
void Network<T>::firstStep(const MatrixMap &projections,
                           llvm::ArrayRef<unsigned> columns, size_t stride,
                           MatrixMap &h, MatrixMap &c) const {
  Eigen::Index e = shape.embedding;
  auto sigmoidOf = [](auto rows) {
    return ((-rows.array()).exp() + T(1)).inverse();
  };
  // What inferStep computes on the gathered columns with `first`, read in
  // place: gates i, g, o of column s are its projection's top three
  // quarters.
  for (Eigen::Index s = 0; s < h.cols(); ++s) {
    auto gates = projections.col(columns[size_t(s) * stride]);
    c.col(s) = (sigmoidOf(gates.head(e)) * gates.segment(e, e).array().tanh())
                   .matrix();
    h.col(s) = (sigmoidOf(gates.segment(2 * e, e)) * c.col(s).array().tanh())
                   .matrix();
  }
}

template <typename T>
typename Network<T>::Matrix
Network<T>::inferLogits(const InferenceBatch &batch, const Matrix &referencePre,
                        Workspace &ws) const {
  Eigen::Index e = shape.embedding;
  const FeatureTree &tree = batch.getTree();

  // The distinct computation vectors' first layer: the reference's
  // pre-activation plus the columns of the differences.
  Eigen::Index columns = Eigen::Index(batch.columnComputation.size());
  size_t slot = kPingPong;
  Eigen::Index rows = sparseInput.weight.rows();
  MatrixMap first = ws.get(slot, rows, columns);
  // Blocks of rows kept in registers across the column's differences (the
  // same sums, in the same order, as adding weight columns to the column).
  constexpr Eigen::Index kBlock = 32;
  using Block = Eigen::Matrix<T, kBlock, 1>;
  for (Eigen::Index u = 0; u < columns; ++u) {
    const T *reference = referencePre.col(batch.columnComputation[u]).data();
    T *out = first.col(u).data();
    uint32_t begin = batch.columnStart[u], end = batch.columnStart[u + 1];
    Eigen::Index r = 0;
    for (; r + kBlock <= rows; r += kBlock) {
      Block sum = Eigen::Map<const Block>(reference + r);
      for (uint32_t k = begin; k < end; ++k)
        sum.noalias() +=
            T(batch.diffValue[k]) *
            Eigen::Map<const Block>(sparseInput.weight.col(batch.diffIndex[k])
                                        .data() +
                                    r);
      Eigen::Map<Block>(out + r) = sum;
    }
    if (r == rows)
      continue;
    auto tail = first.col(u).tail(rows - r);
    tail = referencePre.col(batch.columnComputation[u]).tail(rows - r);
    for (uint32_t k = begin; k < end; ++k)
      tail.noalias() += T(batch.diffValue[k]) *
                        sparseInput.weight.col(batch.diffIndex[k]).tail(rows - r);
  }
  MatrixMap embeddings =
      inferMLP(computation, ws, slot, columns, /*firstGiven=*/true);
  // Their projections, computation by computation: a computation that
  // comes first in its loop needs gates i, g, o only.
  MatrixMap projections = ws.get(kProjections, 4 * e, columns);
  std::vector<bool> firstInNode(tree.numComputations, false);
  std::vector<bool> firstChild(tree.nodes.size(), false);
  for (const FeatureTree::Node &node : tree.nodes) {
    if (!node.computations.empty())
      firstInNode[node.computations.front()] = true;
    if (!node.loops.empty())
      firstChild[node.loops.front()] = true;
  }
  for (unsigned c = 0; c < tree.numComputations; ++c) {
    Eigen::Index begin = batch.computationStart[c],
                 size = batch.computationStart[c + 1] - begin;
    if (size)
      inferProjection(inferenceComputationLSTM,
                      embeddings.middleCols(begin, size),
                      projections.middleCols(begin, size), firstInNode[c]);
  }

  // Per node, its distinct subtrees' embeddings projected by the loop
  // LSTM's input weights (what its parent reads), in slot
  // kFirstNodeSlot + node.
  const Dense &mergeFirst = merge.layers.front();
  for (auto [n, treeNode] : llvm::enumerate(tree.nodes)) {
    const InferenceBatch::Node &node = batch.nodes[n];
    Eigen::Index count = node.count;
    size_t k = treeNode.computations.size(), l = treeNode.loops.size();
    MatrixMap gates = ws.get(kGates, 4 * e, count);
    MatrixMap h = ws.get(kHidden, e, count), c = ws.get(kCell, e, count);
    slot = kPingPong;
    MatrixMap mergePre = ws.get(slot, mergeFirst.weight.rows(), count);
    setColumns(mergePre, mergeFirst.bias.col(0));
    for (size_t t = 0; t < k; ++t) {
      if (t == 0) {
        firstStep(projections, node.computations, k, h, c);
        continue;
      }
      for (Eigen::Index s = 0; s < count; ++s)
        gates.col(s) = projections.col(node.computations[s * k + t]);
      inferStep(inferenceComputationLSTM, gates, h, c, /*first=*/false);
    }
    if (k)
      mergePre.noalias() += mergeFirst.weight.leftCols(e) * h;
    for (size_t t = 0; t < l; ++t) {
      MatrixMap childProjections = ws.get(
          kFirstNodeSlot + size_t(treeNode.loops[t]), 4 * e,
          batch.nodes[treeNode.loops[t]].count);
      if (t == 0) {
        firstStep(childProjections, node.children, l, h, c);
        continue;
      }
      for (Eigen::Index s = 0; s < count; ++s)
        gates.col(s) = childProjections.col(node.children[s * l + t]);
      inferStep(inferenceLoopLSTM, gates, h, c, /*first=*/false);
    }
    if (l)
      mergePre.noalias() += mergeFirst.weight.rightCols(e) * h;
    MatrixMap nodeEmbeddings =
        inferMLP(merge, ws, slot, count, /*firstGiven=*/true);
    if (n + 1 == tree.nodes.size()) {
      MatrixMap distinctLogits =
          inferMLP(regression, ws, slot, count, /*firstGiven=*/false);
      Matrix logits(1, Eigen::Index(batch.size()));
      for (size_t b = 0; b < batch.size(); ++b)
        logits(0, Eigen::Index(b)) = distinctLogits(0, batch.sampleRoot[b]);
      return logits;
    }
    inferProjection(inferenceLoopLSTM, nodeEmbeddings,
                    ws.get(kFirstNodeSlot + n, 4 * e, count), firstChild[n]);
  }
  return Matrix(); // A tree has a root.
}

template <typename T>
T tuner::mapeLoss(const typename Network<T>::Matrix &predictions,
                  const typename Network<T>::Matrix &targets,
                  typename Network<T>::Matrix *grad) {
  Eigen::Index n = predictions.cols();
  T loss =
      ((predictions - targets).array().abs() / targets.array()).sum() / T(n);
  if (grad)
    *grad = ((predictions - targets).array().sign() / targets.array() / T(n))
                .matrix();
  return loss;
}

template <typename T>
T tuner::logErrorLoss(const typename Network<T>::Matrix &predictions,
                      const typename Network<T>::Matrix &targets,
                      typename Network<T>::Matrix *grad) {
  Eigen::Index n = predictions.cols();
  auto difference = predictions.array().log() - targets.array().log();
  T loss = difference.abs().sum() / T(n);
  if (grad)
    *grad =
        (difference.sign() / predictions.array() / T(n)).matrix();
  return loss;
}

namespace tuner {
template class Network<float>;
template class Network<double>;
template float mapeLoss<float>(const Network<float>::Matrix &,
                               const Network<float>::Matrix &,
                               Network<float>::Matrix *);
template double mapeLoss<double>(const Network<double>::Matrix &,
                                 const Network<double>::Matrix &,
                                 Network<double>::Matrix *);
template float logErrorLoss<float>(const Network<float>::Matrix &,
                                   const Network<float>::Matrix &,
                                   Network<float>::Matrix *);
template double logErrorLoss<double>(const Network<double>::Matrix &,
                                     const Network<double>::Matrix &,
                                     Network<double>::Matrix *);
} // namespace tuner
