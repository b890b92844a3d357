//===- Strategies.h - Constructors of the built-in strategies ---*- C++ -*-===//

#ifndef TUNER_SEARCH_STRATEGIES_H
#define TUNER_SEARCH_STRATEGIES_H

#include "tuner/Search/Strategy.h"

namespace tuner {

/// Uniform samples of the feasible configs (Chain-of-Trees), never the same
/// config twice; once sampling keeps hitting known configs of a small space,
/// the remaining ones are enumerated in random order.
std::unique_ptr<Strategy> createRandomSearch(const ChainOfTrees &chain,
                                             uint64_t seed);

/// Every feasible config once, in the chain's enumeration order.
std::unique_ptr<Strategy> createExhaustiveSearch(const ChainOfTrees &chain);

} // namespace tuner

#endif // TUNER_SEARCH_STRATEGIES_H
