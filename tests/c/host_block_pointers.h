/* The pointer-array launch (runtime/block_pointers.h) on the host, for the host-only tests of the
 * code that calls it (tests/c/test_drivers_host.c, test_vendor_strided_host.c): the workspace is
 * host memory, written as the kernel writes it. */
#ifndef SHOAL_HOST_BLOCK_POINTERS_H
#define SHOAL_HOST_BLOCK_POINTERS_H

#include "block_pointers.h"

/* launches made since the test last zeroed it */
extern int host_block_pointer_launches;

#endif
