//===- Network.h - The tree-LSTM, forward and backward ----------*- C++ -*-===//
//
// The network of the cost model on Eigen matrices, for a batch of schedules
// that share one tree shape: column b of every activation belongs to sample
// b. Templated on the scalar: float for training and inference, double for
// the finite-difference checks of the hand-written backward pass.
//
// Internal to TunerCostModel (Eigen stays out of the public headers, so the
// library may be compiled for the host's vector units without changing the
// layout of Eigen objects in other libraries).
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_NETWORK_H
#define TUNER_LIB_COSTMODEL_NETWORK_H

#include "tuner/CostModel/CostModel.h"
#include "tuner/CostModel/Features.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <Eigen/Dense>

#include <new>
#include <random>
#include <string>
#include <vector>

namespace tuner {

/// A batch of schedules of one program that share one tree shape, prepared
/// for Network<float>::inferLogits once for every network of an ensemble:
/// the computation vectors as sparse differences from those of the
/// program's reference schedule (most entries of a computation vector do
/// not depend on the schedule), each distinct one once, and per tree node
/// the distinct subtrees below it (schedules that differ only in one nest
/// share the subtrees of the others), so that a network computes every
/// distinct computation embedding and loop embedding once.
class InferenceBatch {
public:
  /// `schedules` (at least one) must share one tree shape; `reference` is a
  /// schedule of the same program (any tree shape).
  InferenceBatch(const ProgramFeatures &reference,
                 llvm::ArrayRef<const ProgramFeatures *> schedules);

  /// What a schedule's computation vectors are as differences from the
  /// reference's: per computation c, the key c, then (index, raw bits of
  /// the value) for every entry that differs, appended to `keys` (the
  /// computations' keys in order, each starting where the previous ended;
  /// their starts appended to `keyStart`). `values` and `reference.values`
  /// hold `computations` vectors each.
  static void appendKeys(const ProgramFeatures &reference,
                         llvm::ArrayRef<float> values, unsigned computations,
                         std::vector<uint32_t> &keys,
                         std::vector<size_t> &keyStart);
  /// The batch of `samples` schedules of one tree shape, `tree`, whose
  /// computation vectors' keys (appendKeys) are keys[b * computations + c]
  /// for schedule b's computation c.
  InferenceBatch(const ProgramFeatures &reference, const FeatureTree &tree,
                 size_t samples,
                 llvm::ArrayRef<llvm::ArrayRef<uint32_t>> keys);

  const FeatureTree &getTree() const { return *tree; }
  size_t size() const { return sampleRoot.size(); }

  /// Distinct computation vectors: the computation each belongs to, and the
  /// entries where its transformed vector differs from the reference's
  /// (index, transformed value minus the reference's), entries
  /// [columnStart[u], columnStart[u + 1]) of diffIndex / diffValue.
  std::vector<unsigned> columnComputation;
  /// The distinct vectors of computation c are [computationStart[c],
  /// computationStart[c + 1]).
  std::vector<unsigned> computationStart;
  std::vector<uint32_t> columnStart;
  std::vector<uint32_t> diffIndex;
  std::vector<float> diffValue;

  /// The distinct subtrees below one tree node: `count` of them, subtree s
  /// made of the distinct computation vectors computations[s * k + t] (k:
  /// the node's computations) and the distinct subtrees
  /// children[s * l + t] of its child loops (l: the node's loops).
  struct Node {
    unsigned count = 0;
    std::vector<unsigned> computations, children;
  };
  std::vector<Node> nodes;
  /// Per schedule, its distinct subtree of the root.
  std::vector<unsigned> sampleRoot;

private:
  void build(const ProgramFeatures &reference, size_t samples,
             llvm::ArrayRef<llvm::ArrayRef<uint32_t>> keys);
  const FeatureTree *tree;
};

template <typename T> class Network {
public:
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

  /// A fully connected layer: y = weight * x + bias.
  struct Dense {
    Matrix weight, bias, weightGrad, biasGrad;
  };
  /// An LSTM cell (gates i, f, g, o stacked in that order).
  struct LSTM {
    Matrix inputWeight, hiddenWeight, bias;
    Matrix inputWeightGrad, hiddenWeightGrad, biasGrad;
  };
  /// A stack of dense layers; ELU and dropout after each layer but, when
  /// `linearOutput`, the last.
  struct MLP {
    std::vector<Dense> layers;
    bool linearOutput = false;
  };

  /// What the backward pass of an MLP needs.
  struct MLPTape {
    std::vector<Matrix> inputs, preActivations, masks;
  };
  /// One LSTM step.
  struct StepTape {
    Matrix hPrev, cPrev, i, f, g, o, c, tanhC;
  };
  /// One node of the tree.
  struct NodeTape {
    std::vector<StepTape> computationSteps, loopSteps;
    MLPTape merge;
  };
  /// Everything the backward pass needs of one forward pass.
  struct Tape {
    MLPTape computation;
    Matrix embeddings; ///< Computation embeddings, E x (C * B).
    std::vector<NodeTape> nodes;
    std::vector<Matrix> nodeEmbeddings;
    MLPTape regression;
    Matrix logits;      ///< 1 x B, before exp.
    Matrix predictions; ///< 1 x B.
  };

  explicit Network(const NetworkShape &shape);

  /// Glorot-uniform weights, zero biases, from `seed`.
  void initialize(uint64_t seed);

  /// Predicted speedups (1 x B) of a batch of B schedules sharing `tree`.
  /// `inputs` holds transformed computation vectors: computation c of sample
  /// b in column c * B + b. With `tape`, records what backward needs; with
  /// `dropout`, drops activations (training).
  Matrix forward(const FeatureTree &tree, const Matrix &inputs, unsigned batch,
                 Tape *tape = nullptr,
                 std::mt19937_64 *dropout = nullptr) const;

  /// Adds to the gradients of every parameter those of
  /// sum_b predictionGrad(b) * prediction(b) for the forward pass in `tape`.
  void backward(const FeatureTree &tree, const Tape &tape,
                const Matrix &predictionGrad);

  /// The regression's raw outputs (1 x B, before clamping and exp): what
  /// forward exponentiates.
  Matrix forwardLogits(const FeatureTree &tree, const Matrix &inputs,
                       unsigned batch, Tape *tape = nullptr,
                       std::mt19937_64 *dropout = nullptr) const;
  /// backward, from the gradient of the logits.
  void backwardLogits(const FeatureTree &tree, const Tape &tape,
                      const Matrix &logitGrad);

  /// Speedups relative to a reference schedule of the same program (the
  /// untransformed one): exp(logit(schedule b) - logit(reference)), the
  /// difference clamped like a logit. The network thus scores schedules on
  /// one scale across programs, and the reference's own prediction is 1.
  struct RelativeTape {
    Tape schedules, reference;
    Matrix differences, predictions;
  };
  Matrix forwardRelative(const FeatureTree &tree, const Matrix &inputs,
                         unsigned batch, const FeatureTree &referenceTree,
                         const Matrix &referenceInputs,
                         RelativeTape *tape = nullptr,
                         std::mt19937_64 *dropout = nullptr) const;
  /// Adds the gradients of sum_b predictionGrad(b) * prediction(b) for the
  /// forwardRelative pass in `tape`.
  void backwardRelative(const FeatureTree &tree,
                        const FeatureTree &referenceTree,
                        const RelativeTape &tape, const Matrix &predictionGrad);
  /// exp of the clamped differences of `logits` (1 x B) and `reference`.
  static Matrix relativeSpeedups(const Matrix &logits, T reference);

  /// Calls fn(name, value, gradient) for every parameter, in a fixed order.
  void forEachParameter(
      llvm::function_ref<void(const std::string &, Matrix &, Matrix &)> fn);
  /// The same, read-only, without gradients.
  void forEachParameter(
      llvm::function_ref<void(const std::string &, const Matrix &)> fn) const;
  void zeroGradients();
  size_t parameterCount();

  const NetworkShape &getShape() const { return shape; }
  /// The weights of the regression's last layer (1 x its input).
  const Matrix &lastLayerWeight() const {
    return regression.layers.back().weight;
  }

  /// Packs the transformed computation vectors of `schedules` (which must
  /// share one tree shape) as forward's `inputs`.
  static Matrix packInputs(llvm::ArrayRef<const ProgramFeatures *> schedules);

  /// The standardization of the transformed computation vectors that
  /// forward applies first: x' = (x - mean) / scale, per feature. Fixed
  /// (not trained); identity until set.
  struct InputNormalization {
    std::vector<T> mean, scale;
    bool empty() const { return mean.empty(); }
  };
  /// Accumulates packed computation vectors (of the training set); result()
  /// is their per-feature mean and standard deviation, where a feature that
  /// varies less than kMinInputScale is only centred.
  class NormalizationFit {
  public:
    void add(const Matrix &inputs);
    InputNormalization result() const;

  private:
    std::vector<double> sum, squares;
    size_t count = 0;
  };
  const InputNormalization &getInputNormalization() const {
    return normalization;
  }
  void setInputNormalization(InputNormalization n) {
    normalization = std::move(n);
    sparseInput = Dense();
  }

  /// Prepares the inference path that forward takes without a tape or
  /// dropout: the standardization folded into the first layer of the
  /// computation MLP (W diag(1/scale), b - W diag(1/scale) mean), which then
  /// reads only the nonzero entries of the computation vectors (about 7 % of
  /// them: the layout is padded to its maxima). Call it after the weights'
  /// last change; initialize and setInputNormalization undo it.
  void prepareInference();
  static constexpr double kMinInputScale = 0.1;
  /// Whether prepareInference ran since the weights last changed.
  bool isPreparedForInference() const { return sparseInput.weight.size(); }

  /// The first layer's pre-activations of the computation vectors of
  /// `reference` (one column per computation), for inferLogits. Requires
  /// prepareInference.
  Matrix referencePreActivations(const ProgramFeatures &reference) const;
  /// Buffers that inferLogits reuses from one call to the next: they only
  /// grow, so that scoring many batches allocates (and faults in) memory
  /// once.
  using MatrixMap = Eigen::Map<Matrix>;
  class Workspace {
  public:
    /// The alignment of every buffer: an AVX-512 vector (and a cache line).
    static constexpr size_t kAlignment = 64;
    /// A rows x cols matrix in buffer `slot` (its old values unspecified),
    /// aligned to kAlignment. With the layer sizes multiples of 16, every
    /// column is too, so that Eigen's vectorized loops over a column need
    /// no scalar prologue and epilogue (there, the gates' sigmoid and tanh
    /// cost a scalar exp per entry). Eigen's own aligned_allocator would not
    /// do: this library caps Eigen's alignment at 16 bytes
    /// (EIGEN_MAX_ALIGN_BYTES, for the layout of Eigen objects shared with
    /// other libraries), which malloc already gives.
    MatrixMap get(size_t slot, Eigen::Index rows, Eigen::Index cols);

  private:
    template <typename U> struct Allocator {
      using value_type = U;
      Allocator() = default;
      template <typename V> Allocator(const Allocator<V> &) {}
      U *allocate(size_t n) {
        return static_cast<U *>(
            ::operator new(n * sizeof(U), std::align_val_t(kAlignment)));
      }
      void deallocate(U *p, size_t) {
        ::operator delete(p, std::align_val_t(kAlignment));
      }
      /// Elements are default-initialized: a buffer's old values are
      /// unspecified anyway, and zero-filling a grown buffer cost a pass
      /// over its memory (and its pages' first faults) per growth.
      template <typename V, typename... Args>
      void construct(V *p, Args &&...args) {
        if constexpr (sizeof...(Args) == 0)
          ::new (static_cast<void *>(p)) V;
        else
          ::new (static_cast<void *>(p)) V(std::forward<Args>(args)...);
      }
      bool operator==(const Allocator &) const { return true; }
      bool operator!=(const Allocator &) const { return false; }
    };
    std::vector<std::vector<T, Allocator<T>>> buffers;
  };
  /// The regression's raw outputs (1 x batch.size()) for `batch`, whose
  /// reference's first-layer pre-activations are `referencePre`: what
  /// forwardLogits computes for the same schedules, up to float rounding,
  /// computing every distinct subtree once and no product with a zero
  /// operand (empty LSTM states, absent halves of the merge input).
  /// Requires prepareInference.
  Matrix inferLogits(const InferenceBatch &batch, const Matrix &referencePre,
                     Workspace &workspace) const;

  /// Copies every parameter of `other` (same shape) converted to T.
  template <typename U> void copyParameters(Network<U> &other) {
    sparseInput = Dense();
    std::vector<const typename Network<U>::Matrix *> values;
    other.forEachParameter(
        [&](const std::string &, typename Network<U>::Matrix &value,
            typename Network<U>::Matrix &) { values.push_back(&value); });
    size_t i = 0;
    forEachParameter([&](const std::string &, Matrix &value, Matrix &) {
      value = values[i++]->template cast<T>();
    });
    const auto &source = other.getInputNormalization();
    normalization.mean.assign(source.mean.begin(), source.mean.end());
    normalization.scale.assign(source.scale.begin(), source.scale.end());
  }

private:
  /// With `firstPre`, the first layer's pre-activation is given (x is not
  /// read).
  Matrix forwardMLP(const MLP &mlp, const Matrix &x, MLPTape *tape,
                    std::mt19937_64 *dropout,
                    const Matrix *firstPre = nullptr) const;
  /// The first layer of the computation MLP on raw inputs, by prepareInference's
  /// folded weights, skipping zero entries.
  Matrix sparseFirstLayer(const Matrix &inputs) const;
  /// inferLogits' MLP on the matrix in workspace `slot` (the first layer's
  /// pre-activation when `firstGiven`, else its input), its layers' outputs
  /// alternating between slots 0 and 1; `slot` becomes the result's.
  MatrixMap inferMLP(const MLP &mlp, Workspace &workspace, size_t &slot,
                     Eigen::Index cols, bool firstGiven) const;
  /// inferLogits' LSTM step of `cell` (an inference copy, gates i, g, o,
  /// f): gates from `gates` (the input projection; overwritten), state h and
  /// c updated in place; `first` when the state is the zero initial one
  /// (then only the top three quarters of `gates` are read).
  void inferStep(const LSTM &cell, MatrixMap &gates, MatrixMap &h,
                 MatrixMap &c, bool first) const;
  /// inferStep from the zero state on gathered columns, reading them in
  /// place: column s of `h` and `c` from the input projection in column
  /// columns[s * stride] of `projections`.
  void firstStep(const MatrixMap &projections, llvm::ArrayRef<unsigned> columns,
                 size_t stride, MatrixMap &h, MatrixMap &c) const;
  /// inferLogits' input projection of `x` by `cell` (an inference copy)
  /// into `out`: every gate, or (`first`) the top three quarters, gates i,
  /// g, o, only.
  template <typename In, typename Out>
  void inferProjection(const LSTM &cell, const In &x, Out &&out,
                       bool first) const;
  /// Returns the gradient of the MLP's input (an empty matrix unless
  /// `inputGrad`).
  Matrix backwardMLP(MLP &mlp, const MLPTape &tape, Matrix grad,
                     bool inputGrad = true);
  /// One step: gates from `projection` (input weight * x + bias) and h.
  void step(const LSTM &cell, const Matrix &projection, Matrix &h, Matrix &c,
            StepTape *tape) const;
  /// Backward through the steps of one sequence, from the gradient of its
  /// last h; calls inputGrad(step, grad of the step's projection).
  void backwardSteps(
      LSTM &cell, const std::vector<StepTape> &steps, Matrix dh,
      llvm::function_ref<void(size_t, const Matrix &)> projectionGrad);

  NetworkShape shape;
  InputNormalization normalization;
  MLP computation, merge, regression;
  LSTM computationLSTM, loopLSTM;
  /// prepareInference's folded first layer (empty when not prepared).
  Dense sparseInput;
  /// prepareInference's copies of the LSTMs for inferLogits, their gates
  /// reordered i, g, o, f: a first step (zero state, no forget gate) reads
  /// the top three quarters only.
  LSTM inferenceComputationLSTM, inferenceLoopLSTM;
};

extern template class Network<float>;
extern template class Network<double>;

/// MAPE of predictions against targets (1 x B each, targets > 0); with
/// `grad`, also its gradient with respect to the predictions.
template <typename T>
T mapeLoss(const typename Network<T>::Matrix &predictions,
           const typename Network<T>::Matrix &targets,
           typename Network<T>::Matrix *grad);

/// Mean absolute log error, mean |log(prediction) - log(target)| (both > 0);
/// with `grad`, also its gradient with respect to the predictions.
template <typename T>
T logErrorLoss(const typename Network<T>::Matrix &predictions,
               const typename Network<T>::Matrix &targets,
               typename Network<T>::Matrix *grad);

/// The loss `kind` (see TrainingLoss) of predictions against targets.
template <typename T>
T trainingLoss(TrainingLoss kind,
               const typename Network<T>::Matrix &predictions,
               const typename Network<T>::Matrix &targets,
               typename Network<T>::Matrix *grad) {
  return kind == TrainingLoss::MAPE
             ? mapeLoss<T>(predictions, targets, grad)
             : logErrorLoss<T>(predictions, targets, grad);
}

} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_NETWORK_H
