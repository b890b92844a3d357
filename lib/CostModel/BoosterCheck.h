//===- BoosterCheck.h - Checking a booster before XGBoost -------*- C++ -*-===//
//
// Internal to TunerCostModel. XGBoost 1.7 trusts the model it reads: the
// lengths inside its UBJSON (a wrong one made it allocate terabytes or read
// past the buffer), the parent and child indices of every tree node (it
// indexes its node array with them), the split feature indices (it indexes
// the input row with them), the output group of every tree, and that trees
// are trees (a cycle makes prediction loop forever). A tree model file is
// input like any other, so before its booster reaches XGBoost the tuner
// decodes the UBJSON itself (every length checked against the bytes left)
// and checks the whole booster against the one shape the tuner trains:
// gbtree, one output, squared error or pairwise ranking, the flat feature
// layout's width, numerical splits, finite values. Only bytes that pass,
// and that decode to nothing but that shape, are handed to XGBoost.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_LIB_COSTMODEL_BOOSTERCHECK_H
#define TUNER_LIB_COSTMODEL_BOOSTERCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace tuner {
namespace booster {

/// Most nesting of containers in a booster's UBJSON (XGBoost's is 6 deep).
constexpr unsigned kMaxDepth = 32;
/// Most trees in a booster, and most nodes in one tree.
constexpr int64_t kMaxTrees = 1000000;
constexpr int64_t kMaxNodes = 1 << 20;
/// Most levels below a tree's root (training allows depth 64).
constexpr unsigned kMaxTreeDepth = 64;
/// Largest magnitude of a leaf value or of the base score: a million trees
/// of such leaves still sum to a finite float.
constexpr double kMaxLeafMagnitude = 1e30;

/// Decodes UBJSON the way XGBoost 1.7 writes it (objects with
/// length-prefixed keys, arrays with or without a count, typed arrays of
/// float32, uint8, int32 and int64, integers, floats, strings, booleans and
/// null) into JSON: integers as integers, floats as doubles. Strict: every
/// length and count is checked against the bytes left before anything is
/// allocated, keys are unique, strings are UTF-8, nesting is at most
/// kMaxDepth, and the value must end exactly at the last byte. Errors say
/// what was wrong and at which byte.
llvm::Expected<llvm::json::Value> decodeUBJSON(llvm::StringRef bytes);

/// Checks a decoded booster (XGBoost 1.7's model JSON: {"learner": ...,
/// "version": [1, 7, P]}) for rows of `numFeatures` features; returns its
/// number of trees. Every object must have exactly the keys XGBoost writes
/// for a gbtree of one output fitted by reg:squarederror or rank:pairwise,
/// and in every tree: arrays as long as its node count, node 0 the root, the
/// children of a split node in range, the right one next to the left one
/// (XGBoost's predictor steps to left + 1), each node the child of exactly
/// one split (no cycles, no shared or unreachable nodes) whose index its
/// parent entry holds, leaves marked -1/-1, split features below
/// `numFeatures`, finite values, numerical splits only. Errors name the
/// tree and node ("tree 3, node 5: ...").
llvm::Expected<unsigned> checkBooster(const llvm::json::Value &booster,
                                      unsigned numFeatures);

} // namespace booster
} // namespace tuner

#endif // TUNER_LIB_COSTMODEL_BOOSTERCHECK_H
