/* placeholder */
#include "table.h"
