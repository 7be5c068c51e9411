/* placeholder */
#include "trace.h"
