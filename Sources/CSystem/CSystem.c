/* Declarations only: see include/CSystem.h. */
#include "CSystem.h"
