#include "tuner/Frob/Frob.h"
