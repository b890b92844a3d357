//===- Format.h - Numbers and times as messages show them -------*- C++ -*-===//

#ifndef TUNER_SUPPORT_FORMAT_H
#define TUNER_SUPPORT_FORMAT_H

#include <string>

namespace tuner {

/// A number as a user would write it: 0.5, 3, 1e+20 (printf's %g).
std::string shortNumber(double value);

/// Seconds in s, ms or us with `decimals` decimals: "1.234 ms".
std::string formatSeconds(double seconds, unsigned decimals = 3);

} // namespace tuner

#endif // TUNER_SUPPORT_FORMAT_H
