//===- ErrorMessage.h - Errors as strings, for assertions -------*- C++ -*-===//

#ifndef TUNER_TEST_UNIT_SPACE_ERRORMESSAGE_H
#define TUNER_TEST_UNIT_SPACE_ERRORMESSAGE_H

#include "llvm/Support/Error.h"

#include <string>

namespace tuner::test {

/// The message of `error`, or "" on success.
inline std::string message(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

/// The message of `value`'s error (taking it), or "" when it holds a value.
template <typename T> std::string message(llvm::Expected<T> &value) {
  return value ? std::string() : llvm::toString(value.takeError());
}

} // namespace tuner::test

#endif // TUNER_TEST_UNIT_SPACE_ERRORMESSAGE_H
