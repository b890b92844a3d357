//===- StableSort.h - Stable sorting without a temporary buffer -----------===//
//
// libstdc++ 12's std::stable_sort allocates with std::get_temporary_buffer,
// which clang 22 flags as deprecated in every instantiation. The search and
// the model's metrics sort small vectors where ties must keep their order
// (reproducible proposals), so they use this instead: std::sort on the
// positions with the original position as the tie-break, which gives exactly
// the order std::stable_sort gives.
//
//===----------------------------------------------------------------------===//

#ifndef TUNER_SUPPORT_STABLESORT_H
#define TUNER_SUPPORT_STABLESORT_H

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace tuner {

/// Sorts `values` by `less` (a strict weak order); elements that compare
/// equal keep their relative order.
template <typename T, typename Allocator, typename Less>
void stableSort(std::vector<T, Allocator> &values, Less less) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (less(values[a], values[b]))
      return true;
    if (less(values[b], values[a]))
      return false;
    return a < b;
  });
  std::vector<T, Allocator> sorted;
  sorted.reserve(values.size());
  for (size_t position : order)
    sorted.push_back(std::move(values[position]));
  values = std::move(sorted);
}

} // namespace tuner

#endif // TUNER_SUPPORT_STABLESORT_H
