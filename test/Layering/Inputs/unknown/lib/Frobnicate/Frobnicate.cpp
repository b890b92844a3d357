#include "tuner/Support/Measurement.h"
