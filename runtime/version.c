#include "shoal.h"

/* Compiled into the library, so a program learns the version it runs against, not the one of
 * the header it was built with. */
shoal_status shoal_get_version(int *version)
{
    if (!version) return SHOAL_STATUS_INVALID_VALUE;
    *version = SHOAL_VERSION_MAJOR * 10000 + SHOAL_VERSION_MINOR * 100 + SHOAL_VERSION_PATCH;
    return SHOAL_STATUS_SUCCESS;
}
