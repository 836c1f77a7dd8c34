/* The internal who-served query (runtime/served.h). A file of its own because libshoal exports
 * only the public API (packaging/library.mk): the GPU test programs link this object directly
 * (tests/tests.mk), and it reads the handle itself instead of calling other internal functions. */
#include "served.h"

#include "context.h"

shoal_status shoal_internal_take_served(shoal_handle handle, const char **name)
{
    struct shoal_context *ctx = handle;
    if (!ctx || ctx->magic != SHOAL_CONTEXT_MAGIC) return SHOAL_STATUS_NOT_INITIALIZED;
    if (!name) return SHOAL_STATUS_INVALID_VALUE;
    *name = ctx->served;
    ctx->served = NULL;
    return SHOAL_STATUS_SUCCESS;
}
