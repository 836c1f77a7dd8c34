/* Where a page-end operand goes (issue 29), as plain arithmetic (no CUDA: tests/c/test_page_place.c
 * checks it on the host). An operand of `bytes` bytes is placed in a reserved virtual range so
 * that its last byte is the last byte of the last mapped page and the page after it is reserved
 * but never mapped: any access past the operand's end faults on the hardware.
 *
 *   reservation  [0, reserve_bytes)                 cuMemAddressReserve, aligned to gran
 *   mapped       [0, map_bytes)                     cuMemCreate + cuMemMap + cuMemSetAccess
 *   operand      [offset, offset + bytes)           offset + bytes == map_bytes
 *   guard        [map_bytes, map_bytes + gran)      reserved, unmapped
 *
 * gran is the allocation granularity (cuMemGetAllocationGranularity; a power of two, 2 MiB on
 * current GPUs). map_bytes is bytes rounded up to gran (one granule when bytes is 0, so that the
 * operand pointer still lies in a mapping); offset is then a multiple of every power of two up
 * to gran that divides bytes, in particular of the element size when bytes is a whole number of
 * elements of a power-of-two size <= gran. The operand's start is as (mis)aligned as -bytes is:
 * offset % 16 == (16 - bytes % 16) % 16. */
#ifndef SHOAL_PAGE_PLACE_H
#define SHOAL_PAGE_PLACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct gpu_test_page_layout {
    size_t map_bytes;     /* what is mapped, from the start of the reservation */
    size_t reserve_bytes; /* map_bytes + one unmapped granule */
    size_t offset;        /* where the operand starts in the reservation */
} gpu_test_page_layout;

/* 0 and *l filled, or -1 when gran is not a power of two or the sizes overflow. */
static inline int gpu_test_page_layout_of(size_t bytes, size_t gran, gpu_test_page_layout *l)
{
    if (gran == 0 || (gran & (gran - 1)) != 0) return -1;
    const size_t granules = bytes ? bytes / gran + (bytes % gran != 0) : 1;
    if (granules > (SIZE_MAX - gran) / gran) return -1; /* map + guard must fit */
    l->map_bytes = granules * gran;
    l->reserve_bytes = l->map_bytes + gran;
    l->offset = l->map_bytes - bytes;
    return 0;
}

#endif
