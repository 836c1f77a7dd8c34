/* Internal, for tests: which implementation served a handle's calls. Not part of shoal.h: the
 * public *_kernel_name queries say what the dispatch would choose, but a call can still take
 * another path (the vendor refuses a case, an argument rules the vendor out), and only the call
 * itself knows. Recording it is one pointer store per call: no synchronization, no allocation. */
#ifndef SHOAL_SERVED_H
#define SHOAL_SERVED_H

#include "shoal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *name = the kernel, or the vendor ("cublas", "cusolver"), that served the last call with work
 * on handle since the previous take, or NULL when no call with work was made (a quick return,
 * bad arguments); then forgets it, so the next take reports only later calls. */
shoal_status shoal_internal_take_served(shoal_handle handle, const char **name);

#ifdef __cplusplus
}
#endif

#endif
