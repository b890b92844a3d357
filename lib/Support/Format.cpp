//===- Format.cpp - Numbers and times as messages show them ---------------===//

#include "tuner/Support/Format.h"

#include <cstdio>

using namespace tuner;

std::string tuner::shortNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::string tuner::formatSeconds(double seconds, unsigned decimals) {
  const char *unit = "s";
  if (seconds < 1e-3) {
    seconds *= 1e6;
    unit = "us";
  } else if (seconds < 1) {
    seconds *= 1e3;
    unit = "ms";
  }
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f %s", int(decimals), seconds, unit);
  return text;
}
