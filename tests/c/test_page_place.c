/* The placement arithmetic of page-end operands (tests/gpu/page_place.h, issue 29) without a GPU:
 * the operand's last byte is the last mapped byte, one unmapped granule follows, the offset keeps
 * the element alignment, and bad granularities or overflowing sizes are refused.
 * Usage: test_page_place [--list | --case NAME]; prints "ok NAME" / "FAILED NAME" per case. */
#include "host_cases.h"
#include "page_place.h"

#define MIB ((size_t)1 << 20)

/* The invariants of a layout of bytes at granularity gran. */
static int layout_ok(size_t bytes, size_t gran, const gpu_test_page_layout *l)
{
    return l->map_bytes % gran == 0 && l->map_bytes >= gran && l->map_bytes >= bytes &&
           l->map_bytes - bytes < gran + (bytes == 0 ? 1 : 0) && /* no wasted whole granule */
           l->offset + bytes == l->map_bytes &&                 /* ends at the page end */
           l->reserve_bytes == l->map_bytes + gran;             /* one unmapped granule after */
}

static void case_exact_multiple(void)
{
    gpu_test_page_layout l;
    CHECK(gpu_test_page_layout_of(2 * MIB, 2 * MIB, &l) == 0);
    CHECK(l.map_bytes == 2 * MIB && l.offset == 0 && l.reserve_bytes == 4 * MIB);
    CHECK(gpu_test_page_layout_of(6 * MIB, 2 * MIB, &l) == 0);
    CHECK(l.map_bytes == 6 * MIB && l.offset == 0 && l.reserve_bytes == 8 * MIB);
}

static void case_partial_granule(void)
{
    gpu_test_page_layout l;
    /* 129 doubles: 1032 bytes, in one granule, ending at its end */
    CHECK(gpu_test_page_layout_of(129 * 8, 2 * MIB, &l) == 0);
    CHECK(l.map_bytes == 2 * MIB && l.offset == 2 * MIB - 1032 && l.reserve_bytes == 4 * MIB);
    CHECK(layout_ok(1032, 2 * MIB, &l));
    /* one byte past a granule: two granules */
    CHECK(gpu_test_page_layout_of(2 * MIB + 4, 2 * MIB, &l) == 0);
    CHECK(l.map_bytes == 4 * MIB && l.offset == 2 * MIB - 4 && l.reserve_bytes == 6 * MIB);
}

static void case_zero_bytes(void)
{
    gpu_test_page_layout l;
    CHECK(gpu_test_page_layout_of(0, 2 * MIB, &l) == 0);
    CHECK(l.map_bytes == 2 * MIB && l.offset == 2 * MIB && l.reserve_bytes == 4 * MIB);
}

/* Every size over a small granularity: the invariants, and the element alignment (the offset is
 * a multiple of the element size when the operand is whole elements), and the start's
 * misalignment mod 16 is that of -bytes. */
static void case_sweep(void)
{
    static const size_t grans[] = {4096, 65536, 2 * MIB};
    static const size_t elems[] = {4, 8, 16};
    for (int g = 0; g < 3; ++g)
        for (int e = 0; e < 3; ++e)
            for (size_t n = 0; n < 3000; n += (n < 64 ? 1 : 37)) {
                gpu_test_page_layout l = {0, 0, 0};
                const size_t bytes = n * elems[e];
                int ok = gpu_test_page_layout_of(bytes, grans[g], &l) == 0 && layout_ok(bytes, grans[g], &l) &&
                         l.offset % elems[e] == 0 && l.offset % 16 == (16 - bytes % 16) % 16;
                if (!ok) printf("  gran %zu elem %zu n %zu: map %zu offset %zu\n", grans[g], elems[e], n, l.map_bytes, l.offset);
                CHECK(ok);
            }
}

/* The start 1..3 elements past a 16-byte boundary, as the tail cases do, follows from the size:
 * single precision, counts 16q + 15, 14, 13 end 4, 8, 12 bytes short of a boundary. */
static void case_misaligned_start(void)
{
    gpu_test_page_layout l;
    for (int s = 1; s <= 3; ++s) {
        CHECK(gpu_test_page_layout_of((size_t)(160 - s) * 4, 2 * MIB, &l) == 0);
        CHECK(l.offset % 16 == (size_t)s * 4);
    }
}

static void case_refused(void)
{
    gpu_test_page_layout l;
    CHECK(gpu_test_page_layout_of(100, 0, &l) != 0);
    CHECK(gpu_test_page_layout_of(100, 3 * MIB, &l) != 0); /* not a power of two */
    CHECK(gpu_test_page_layout_of(SIZE_MAX, 2 * MIB, &l) != 0);
    CHECK(gpu_test_page_layout_of(SIZE_MAX - MIB, 2 * MIB, &l) != 0); /* the mapping would wrap */
    CHECK(gpu_test_page_layout_of(SIZE_MAX - 4 * MIB, 2 * MIB, &l) == 0 && layout_ok(SIZE_MAX - 4 * MIB, 2 * MIB, &l));
    CHECK(gpu_test_page_layout_of(SIZE_MAX / 4, 2 * MIB, &l) == 0 && layout_ok(SIZE_MAX / 4, 2 * MIB, &l));
}

static const test_case cases[] = {
    {"exact_multiple", case_exact_multiple},
    {"partial_granule", case_partial_granule},
    {"zero_bytes", case_zero_bytes},
    {"sweep", case_sweep},
    {"misaligned_start", case_misaligned_start},
    {"refused", case_refused},
};
static const int n_cases = (int)(sizeof cases / sizeof cases[0]);

int main(int argc, char **argv) { return host_cases_main(cases, n_cases, argc, argv); }
