//===- Skewing.cpp - Shifts and skews that make a band tileable -----------===//

#include "tuner/Analysis/Skewing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace tuner;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string DistanceRange::str() const {
  if (lb && ub && *lb == *ub)
    return std::to_string(*lb);
  return "[" + (lb ? std::to_string(*lb) : std::string("-inf")) + ", " +
         (ub ? std::to_string(*ub) : std::string("+inf")) + "]";
}

std::string BandDependence::str() const {
  std::string text =
      "(" +
      llvm::join(llvm::map_range(
                     distance, [](const DistanceRange &d) { return d.str(); }),
                 ", ") +
      ")";
  if (source != target)
    text += " from statement " + std::to_string(source) + " to statement " +
            std::to_string(target);
  return text;
}

static std::string describe(const BandDependence &dependence) {
  return dependence.str();
}

SkewMatrix tuner::identitySkew(size_t depth) {
  SkewMatrix matrix(depth, std::vector<int64_t>(depth, 0));
  for (size_t k = 0; k < depth; ++k)
    matrix[k][k] = 1;
  return matrix;
}

bool tuner::isSkewMatrix(const SkewMatrix &matrix, size_t depth) {
  if (matrix.size() != depth)
    return false;
  for (size_t k = 0; k < depth; ++k) {
    if (matrix[k].size() != depth || matrix[k][k] != 1)
      return false;
    for (size_t l = k + 1; l < depth; ++l)
      if (matrix[k][l] != 0)
        return false;
  }
  return true;
}

bool tuner::isNontrivialSkew(const SkewMatrix &matrix) {
  for (size_t k = 0; k < matrix.size(); ++k)
    for (size_t l = 0; l < k && l < matrix[k].size(); ++l)
      if (matrix[k][l] != 0)
        return true;
  return false;
}

SkewMatrix tuner::invertSkew(const SkewMatrix &matrix) {
  // Forward substitution: x_k = y_k - sum over l < k of M[k][l] x_l.
  size_t depth = matrix.size();
  SkewMatrix inverse = identitySkew(depth);
  for (size_t k = 0; k < depth; ++k)
    for (size_t l = 0; l < k; ++l) {
      if (matrix[k][l] == 0)
        continue;
      for (size_t m = 0; m <= l; ++m)
        inverse[k][m] -= matrix[k][l] * inverse[l][m];
    }
  return inverse;
}

/// The interval of sum over m of coefficients[m] * d[m].
static DistanceRange combine(llvm::ArrayRef<int64_t> coefficients,
                             const std::vector<DistanceRange> &d) {
  std::optional<int64_t> lb = 0, ub = 0;
  for (auto [c, range] : llvm::zip(coefficients, d)) {
    if (c == 0)
      continue;
    const std::optional<int64_t> &low = c > 0 ? range.lb : range.ub;
    const std::optional<int64_t> &high = c > 0 ? range.ub : range.lb;
    lb = lb && low ? std::optional<int64_t>(*lb + c * *low) : std::nullopt;
    ub = ub && high ? std::optional<int64_t>(*ub + c * *high) : std::nullopt;
  }
  return {lb, ub};
}

std::vector<DistanceRange>
tuner::skewDistances(const SkewMatrix &matrix,
                     const std::vector<DistanceRange> &d) {
  std::vector<DistanceRange> skewed;
  for (size_t k = 0; k < matrix.size() && k < d.size(); ++k)
    skewed.push_back(combine(matrix[k], d));
  return skewed;
}

bool tuner::isFullyPermutable(const std::vector<BandDependence> &dependences,
                              size_t depth) {
  return llvm::all_of(dependences, [&](const BandDependence &dependence) {
    if (dependence.distance.size() < depth)
      return false;
    for (size_t k = 0; k < depth; ++k)
      if (!dependence.distance[k].lb || *dependence.distance[k].lb < 0)
        return false;
    return true;
  });
}

llvm::Expected<SkewMatrix>
tuner::computeSkew(const std::vector<BandDependence> &dependences,
                   size_t depth) {
  for (const BandDependence &dependence : dependences)
    if (dependence.distance.size() < depth)
      return error("dependence " + describe(dependence) + " has " +
                   llvm::Twine(dependence.distance.size()) +
                   " distances for a band of " + llvm::Twine(depth) + " loops");
  SkewMatrix matrix = identitySkew(depth);
  if (depth == 0)
    return matrix;
  for (const BandDependence &dependence : dependences) {
    const DistanceRange &outer = dependence.distance[0];
    if (!outer.lb || *outer.lb < 0)
      return error("dependence " + describe(dependence) +
                   " may run backwards on the outermost loop: no skew makes "
                   "the band fully permutable");
  }
  for (size_t k = 1; k < depth; ++k) {
    // Each round fixes the first dependence still negative on loop k; rows
    // above k are final, so their distances are computed once.
    std::vector<std::vector<DistanceRange>> outerDistances;
    for (const BandDependence &dependence : dependences) {
      std::vector<DistanceRange> distances;
      for (size_t l = 0; l < k; ++l)
        distances.push_back(combine(matrix[l], dependence.distance));
      outerDistances.push_back(std::move(distances));
    }
    while (true) {
      bool changed = false;
      for (auto [index, dependence] : llvm::enumerate(dependences)) {
        DistanceRange skewed = combine(matrix[k], dependence.distance);
        if (!skewed.lb)
          return error("dependence " + describe(dependence) +
                       " has a distance unbounded below on loop " +
                       llvm::Twine(k) +
                       ": no skew makes the band fully permutable");
        if (*skewed.lb >= 0)
          continue;
        // The outermost loop that carries the dependence.
        size_t carrier = k;
        for (size_t l = 0; l < k; ++l) {
          const std::optional<int64_t> &lb = outerDistances[index][l].lb;
          if (lb && *lb > 0) {
            carrier = l;
            break;
          }
        }
        if (carrier == k)
          return error("dependence " + describe(dependence) +
                       " is negative on loop " + llvm::Twine(k) +
                       " but no outer loop surely carries it: no skew makes "
                       "the band fully permutable");
        int64_t factor =
            llvm::divideCeil(uint64_t(-*skewed.lb),
                             uint64_t(*outerDistances[index][carrier].lb));
        for (size_t m = 0; m <= carrier; ++m)
          matrix[k][m] += factor * matrix[carrier][m];
        changed = true;
      }
      if (!changed)
        break;
    }
  }
  return matrix;
}

namespace {
/// shift[target][position] - shift[source][position] >= least, for
/// `dependence`.
struct Rule {
  unsigned source, target;
  size_t position;
  int64_t least;
  const BandDependence *dependence;
};
} // namespace

/// The rules that fusion shifts must satisfy.
static llvm::Expected<std::vector<Rule>>
fusionRules(const std::vector<BandDependence> &dependences,
            unsigned numStatements, size_t fusedFrom, size_t depth) {
  std::vector<Rule> rules;
  for (const BandDependence &dependence : dependences) {
    if (dependence.source == dependence.target)
      continue;
    if (dependence.source >= numStatements ||
        dependence.target >= numStatements ||
        dependence.distance.size() < depth)
      return error("dependence " + describe(dependence) +
                   " does not fit a band of " + llvm::Twine(depth) +
                   " loops over " + llvm::Twine(numStatements) + " statements");
    // Only dependences within one iteration of the enclosing loops order
    // the siblings' instances against each other.
    bool sameIteration =
        llvm::all_of(llvm::ArrayRef(dependence.distance).take_front(fusedFrom),
                     [](const DistanceRange &d) {
                       return (!d.lb || *d.lb <= 0) && (!d.ub || *d.ub >= 0);
                     });
    if (!sameIteration)
      continue;
    for (size_t p = fusedFrom; p < depth; ++p) {
      const DistanceRange &d = dependence.distance[p];
      if (!d.lb)
        return error("dependence " + describe(dependence) +
                     " has a distance unbounded below on loop " +
                     llvm::Twine(p) + ": no shift lets the nests fuse");
      // A later sibling's instance that an earlier one depends on must run
      // strictly before it on the first fused loop.
      int64_t least = -*d.lb;
      if (dependence.source > dependence.target && p == fusedFrom)
        ++least;
      rules.push_back({dependence.source, dependence.target, p - fusedFrom,
                       least, &dependence});
    }
  }
  return rules;
}

llvm::Expected<std::vector<std::vector<int64_t>>>
tuner::computeFusionShifts(const std::vector<BandDependence> &dependences,
                           unsigned numStatements, size_t fusedFrom,
                           size_t depth) {
  std::vector<std::vector<int64_t>> shifts(
      numStatements, std::vector<int64_t>(depth - fusedFrom, 0));
  llvm::Expected<std::vector<Rule>> rules =
      fusionRules(dependences, numStatements, fusedFrom, depth);
  if (!rules)
    return rules.takeError();
  // Longest paths from 0 (Bellman-Ford); a cycle that keeps growing means
  // that no shifts exist.
  for (unsigned round = 0; round <= numStatements; ++round) {
    bool changed = false;
    for (const Rule &rule : *rules) {
      int64_t &target = shifts[rule.target][rule.position];
      int64_t needed = shifts[rule.source][rule.position] + rule.least;
      if (target < needed) {
        target = needed;
        changed = true;
      }
    }
    if (!changed)
      return shifts;
  }
  return error("the dependences between the nests form a cycle that no "
               "shift satisfies");
}

llvm::Error
tuner::verifyFusionShifts(const std::vector<BandDependence> &dependences,
                          const std::vector<std::vector<int64_t>> &shifts,
                          size_t fusedFrom, size_t depth) {
  for (const std::vector<int64_t> &statement : shifts)
    if (statement.size() != depth - fusedFrom)
      return error("expected " + llvm::Twine(depth - fusedFrom) +
                   " shifts per statement, got " +
                   llvm::Twine(statement.size()));
  llvm::Expected<std::vector<Rule>> rules =
      fusionRules(dependences, shifts.size(), fusedFrom, depth);
  if (!rules)
    return rules.takeError();
  for (const Rule &rule : *rules) {
    int64_t difference =
        shifts[rule.target][rule.position] - shifts[rule.source][rule.position];
    if (difference < rule.least)
      return error(
          "the shifts reverse dependence " + describe(*rule.dependence) +
          ": on fused loop " + llvm::Twine(rule.position) + " statement " +
          llvm::Twine(rule.target) + " must be shifted at least " +
          llvm::Twine(rule.least) + " more than statement " +
          llvm::Twine(rule.source) + ", not " + llvm::Twine(difference));
  }
  return llvm::Error::success();
}

std::vector<BandDependence>
tuner::shiftDependences(const std::vector<BandDependence> &dependences,
                        const std::vector<std::vector<int64_t>> &shifts,
                        size_t fusedFrom) {
  std::vector<BandDependence> shifted = dependences;
  for (BandDependence &dependence : shifted) {
    if (dependence.source >= shifts.size() ||
        dependence.target >= shifts.size())
      continue;
    for (size_t p = fusedFrom; p < dependence.distance.size(); ++p) {
      size_t position = p - fusedFrom;
      if (position >= shifts[dependence.source].size())
        break;
      int64_t delta = shifts[dependence.target][position] -
                      shifts[dependence.source][position];
      DistanceRange &d = dependence.distance[p];
      if (d.lb)
        *d.lb += delta;
      if (d.ub)
        *d.ub += delta;
    }
  }
  return shifted;
}
