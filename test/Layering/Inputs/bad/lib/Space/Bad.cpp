// Space never reaches Search or Tuning (whose folder does not exist here),
// however the include is spelled.
#include "tuner/Search/Strategy.h"
#include "tuner/Tuning/TuningSession.h"
#include "../../include/tuner/Search/Strategy.h"
