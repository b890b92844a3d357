// generator.h - What the Halide generators of the benchmarks share.
//
// Each generator file defines one Halide::Generator, registered under the
// name `benchmark` (run.py builds one generator executable per file, with
// GenGen.cpp, and names the compiled function with -f). It computes the same
// thing as benchmarks/reference/<kernel>.c, on the same buffers:
//
//   - its Inputs are the MLIR function's arguments, in order, then its
//     Outputs are the function's results, in order (what reference/common.h
//     numbers buffers 0, 1, ...: the driver fills them the same way);
//   - a C array a[d0][d1]...[dn] is a Halide buffer a(dn, ..., d1, d0):
//     Halide's dimension 0 is the innermost, so shapes are reversed;
//   - the GeneratorParam `shapes` holds the buffers' shapes as run.py prints
//     them for the MLIR driver ("1024x1024,1024x1024,1024x1024", outermost
//     dimension first). The generator takes its sizes from it, declares them
//     as the buffers' exact bounds (the MLIR kernels and the C references have
//     static shapes too) and as the estimates the autoschedulers need. The
//     default is the shipped kernel's shape.
#ifndef BENCH_HALIDE_GENERATOR_H
#define BENCH_HALIDE_GENERATOR_H

#include "Halide.h"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

using Shape = std::vector<int>;

// Stops the generator with a message (a bad `shapes` parameter).
[[noreturn]] inline void fail(const std::string &message) {
  std::cerr << "benchmark generator: " << message << "\n";
  std::exit(1);
}

// "2x3,4" -> {{2, 3}, {4}}; checks that there are `count` shapes and that
// shape i has rank ranks[i].
inline std::vector<Shape> parse_shapes(const std::string &text, size_t count,
                                       const std::vector<size_t> &ranks) {
  std::vector<Shape> shapes(1);
  std::string number;
  auto flush = [&]() {
    if (number.empty())
      fail("bad shapes '" + text + "'");
    shapes.back().push_back(std::atoi(number.c_str()));
    if (shapes.back().back() <= 0)
      fail("bad extent in shapes '" + text + "'");
    number.clear();
  };
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      number += c;
    } else if (c == 'x') {
      flush();
    } else if (c == ',') {
      flush();
      shapes.emplace_back();
    } else {
      fail("bad character '" + std::string(1, c) + "' in shapes '" + text +
           "'");
    }
  }
  flush();
  if (shapes.size() != count) {
    std::ostringstream message;
    message << "shapes '" << text << "' has " << shapes.size()
            << " buffers, expected " << count;
    fail(message.str());
  }
  for (size_t i = 0; i < count; ++i)
    if (shapes[i].size() != ranks[i]) {
      std::ostringstream message;
      message << "buffer " << i << " of shapes '" << text << "' has rank "
              << shapes[i].size() << ", expected " << ranks[i];
      fail(message.str());
    }
  return shapes;
}

// Halide's region of a C-ordered shape: dimension 0 is the last extent.
inline Halide::Region region(const Shape &shape) {
  Halide::Region result;
  for (size_t i = shape.size(); i-- > 0;)
    result.push_back(Halide::Range(0, shape[i]));
  return result;
}

// Declares a buffer's exact bounds and dense row-major strides, and the same
// bounds as the autoscheduler's estimates.
template <typename Buffer> void fix(Buffer &buffer, const Shape &shape) {
  int stride = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int extent = shape[shape.size() - 1 - d];
    buffer.dim(d).set_bounds(0, extent).set_stride(stride);
    stride *= extent;
  }
  buffer.set_estimates(region(shape));
}

} // namespace bench

#endif // BENCH_HALIDE_GENERATOR_H
