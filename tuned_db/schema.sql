-- shoal's tuned database (docs/internals.md §4). Every result is kept, with a status, so the
-- database explains why a kernel is absent; the dispatch tables in generated/ are derived from
-- the `winners` view and never edited by hand. Committed as the gzip-compressed text dump tuned_db/shoal.sql.gz.

-- One row per (GPU model, software stack): a new CUDA/NVRTC/cuBLAS version can change both
-- shoal's kernels and the vendor baseline, so it is tuned as a device of its own.
CREATE TABLE IF NOT EXISTS devices (
    id                    INTEGER PRIMARY KEY,
    name                  TEXT    NOT NULL,
    cc_major              INTEGER NOT NULL,
    cc_minor              INTEGER NOT NULL,
    sm_count              INTEGER NOT NULL,
    max_threads_per_block INTEGER NOT NULL,
    max_threads_per_sm    INTEGER NOT NULL,
    smem_per_block        INTEGER NOT NULL,
    smem_per_block_optin  INTEGER NOT NULL,
    smem_per_sm           INTEGER NOT NULL,
    regs_per_block        INTEGER NOT NULL,
    regs_per_sm           INTEGER NOT NULL,
    l2_bytes              INTEGER NOT NULL,
    mem_bytes             INTEGER NOT NULL,
    -- Versions as the tuner prints them; '' rather than NULL so that UNIQUE sees them equal.
    driver_version        TEXT    NOT NULL DEFAULT '',
    runtime_version       TEXT    NOT NULL DEFAULT '',
    nvrtc_version         TEXT    NOT NULL DEFAULT '',
    cublas_version        TEXT    NOT NULL DEFAULT '',
    UNIQUE (name, cc_major, cc_minor, runtime_version, nvrtc_version, cublas_version)
);

CREATE TABLE IF NOT EXISTS runs (
    id               INTEGER PRIMARY KEY,
    device_id        INTEGER NOT NULL REFERENCES devices (id),
    started          TEXT    NOT NULL,          -- ISO 8601, UTC
    finished         TEXT,                      -- NULL: interrupted (the measurements stay valid)
    routines         TEXT    NOT NULL,          -- comma-separated
    precisions       TEXT    NOT NULL,          -- comma-separated
    template_version TEXT    NOT NULL,          -- routine:version, comma-separated
    host             TEXT    NOT NULL DEFAULT '',
    note             TEXT    NOT NULL DEFAULT ''
);

-- Statically pruned candidates are recorded once per kernel with mode 'any', m = n = k = 0 and
-- batch 0; everything else is one (kernel, shape) task of the tuner. The vendor baseline is a
-- row like any other, with design 'vendor' and kernel = the vendor's name ('cublas').
CREATE TABLE IF NOT EXISTS measurements (
    id               INTEGER PRIMARY KEY,
    run_id           INTEGER NOT NULL REFERENCES runs (id),
    device_id        INTEGER NOT NULL REFERENCES devices (id),
    routine          TEXT    NOT NULL,
    precision        TEXT    NOT NULL,
    mode             TEXT    NOT NULL,          -- 'strided', 'array' ('any' for static prunes)
    variant          TEXT    NOT NULL,          -- 'nn', 'nt', 'tn', 'tt'
    m                INTEGER NOT NULL,
    n                INTEGER NOT NULL,
    k                INTEGER NOT NULL,
    batch            INTEGER NOT NULL,
    design           TEXT    NOT NULL,
    config           TEXT    NOT NULL,          -- JSON, sorted keys
    kernel           TEXT    NOT NULL,
    template_version TEXT    NOT NULL,
    status           TEXT    NOT NULL
        CHECK (status IN ('pruned', 'compile_failed', 'launch_failed', 'wrong', 'ok')),
    reason           TEXT    NOT NULL DEFAULT '',
    median_ms        REAL,
    min_ms           REAL,
    gflops           REAL,                      -- flops * batch / median
    gbs              REAL,                      -- bytes * batch / median, GB/s
    error            REAL,                      -- in units of eps (internals.md §3)
    regs             INTEGER,
    smem             INTEGER,
    resident_threads INTEGER,
    created          TEXT    NOT NULL,
    UNIQUE (device_id, template_version, routine, precision, mode, variant, m, n, k, kernel)
);

CREATE VIEW IF NOT EXISTS vendor_baselines AS
    SELECT * FROM measurements WHERE design = 'vendor';

-- Per tuned shape: the fastest 'ok' row overall (ties broken by kernel name, so the choice is
-- reproducible), the vendor's row beside it, and the fastest of shoal's own kernels (which the
-- runtime uses when vendor dispatch is off). Rows that are not 'ok' can never appear here.
CREATE VIEW IF NOT EXISTS winners AS
    WITH ranked AS (
        SELECT *,
               ROW_NUMBER() OVER (
                   PARTITION BY device_id, template_version, routine, precision, mode, variant,
                                m, n, k
                   ORDER BY median_ms, kernel) AS rank_all,
               ROW_NUMBER() OVER (
                   PARTITION BY device_id, template_version, routine, precision, mode, variant,
                                m, n, k, design = 'vendor'
                   ORDER BY median_ms, kernel) AS rank_kind
        FROM measurements
        WHERE status = 'ok' AND median_ms IS NOT NULL AND median_ms > 0
    )
    SELECT w.device_id, d.name AS device_name, w.template_version, w.routine, w.precision,
           w.mode, w.variant, w.m, w.n, w.k, w.batch,
           w.kernel, w.design, w.config, w.median_ms, w.gflops, w.gbs, w.error,
           v.kernel AS vendor_kernel, v.median_ms AS vendor_ms, v.gflops AS vendor_gflops,
           v.median_ms / w.median_ms AS speedup,
           o.kernel AS own_kernel, o.design AS own_design, o.config AS own_config,
           o.median_ms AS own_ms, o.gflops AS own_gflops
    FROM ranked AS w
    JOIN devices AS d ON d.id = w.device_id
    LEFT JOIN ranked AS v
        ON v.device_id = w.device_id AND v.template_version = w.template_version
       AND v.routine = w.routine AND v.precision = w.precision AND v.mode = w.mode
       AND v.variant = w.variant AND v.m = w.m AND v.n = w.n AND v.k = w.k
       AND v.design = 'vendor' AND v.rank_kind = 1
    LEFT JOIN ranked AS o
        ON o.device_id = w.device_id AND o.template_version = w.template_version
       AND o.routine = w.routine AND o.precision = w.precision AND o.mode = w.mode
       AND o.variant = w.variant AND o.m = w.m AND o.n = w.n AND o.k = w.k
       AND o.design <> 'vendor' AND o.rank_kind = 1
    WHERE w.rank_all = 1;

-- Measurements of from_version stand for to_version of the same routine: a template refactor
-- that compiles to the same kernels keeps its tuning. Rows are added by `python -m generator
-- carry-version`, which refuses unless the shipped kernels and design samples of both versions
-- compare equal (generator/compare.py: bytes, tokens or identical cubins); evidence says what it
-- found. Carries chain: a -> b and b -> c make a's measurements stand for c.
CREATE TABLE IF NOT EXISTS carried_versions (
    routine          TEXT    NOT NULL,
    from_version     TEXT    NOT NULL,
    to_version       TEXT    NOT NULL,
    evidence         TEXT    NOT NULL,
    created          TEXT    NOT NULL,
    PRIMARY KEY (routine, from_version, to_version),
    CHECK (from_version <> to_version)
);

-- `winners` with carried versions honoured: every measurement also counts under each version its
-- own is carried to (transitively); where one key was measured under several versions that reach
-- the same one, the nearest (fewest carries, its own version first) is the one that counts, ok or
-- not. template_version is the version served, measured_version the one the row was taken under.
-- emit, show and the tuner's resume read this; `winners` stays per measured version.
CREATE VIEW IF NOT EXISTS carried_winners AS
    WITH RECURSIVE reach (routine, measured_version, template_version, hops) AS (
        SELECT DISTINCT routine, template_version, template_version, 0 FROM measurements
        UNION
        SELECT r.routine, r.measured_version, c.to_version, r.hops + 1
        FROM reach AS r
        JOIN carried_versions AS c ON c.routine = r.routine AND c.from_version = r.template_version
        WHERE r.hops < 64
    ),
    carried AS (
        SELECT m.device_id, m.routine, m.precision, m.mode, m.variant, m.m, m.n, m.k, m.batch,
               m.design, m.config, m.kernel, m.status, m.median_ms, m.gflops, m.gbs, m.error,
               r.template_version, m.template_version AS measured_version,
               ROW_NUMBER() OVER (
                   PARTITION BY m.device_id, r.template_version, m.routine, m.precision, m.mode,
                                m.variant, m.m, m.n, m.k, m.kernel
                   ORDER BY r.hops) AS nearest
        FROM measurements AS m
        JOIN reach AS r ON r.routine = m.routine AND r.measured_version = m.template_version
    ),
    ranked AS (
        SELECT *,
               ROW_NUMBER() OVER (
                   PARTITION BY device_id, template_version, routine, precision, mode, variant,
                                m, n, k
                   ORDER BY median_ms, kernel) AS rank_all,
               ROW_NUMBER() OVER (
                   PARTITION BY device_id, template_version, routine, precision, mode, variant,
                                m, n, k, design = 'vendor'
                   ORDER BY median_ms, kernel) AS rank_kind
        FROM carried
        WHERE nearest = 1 AND status = 'ok' AND median_ms IS NOT NULL AND median_ms > 0
    )
    SELECT w.device_id, d.name AS device_name, w.template_version, w.measured_version,
           w.routine, w.precision, w.mode, w.variant, w.m, w.n, w.k, w.batch,
           w.kernel, w.design, w.config, w.median_ms, w.gflops, w.gbs, w.error,
           v.kernel AS vendor_kernel, v.median_ms AS vendor_ms, v.gflops AS vendor_gflops,
           v.median_ms / w.median_ms AS speedup,
           o.kernel AS own_kernel, o.design AS own_design, o.config AS own_config,
           o.median_ms AS own_ms, o.gflops AS own_gflops
    FROM ranked AS w
    JOIN devices AS d ON d.id = w.device_id
    LEFT JOIN ranked AS v
        ON v.device_id = w.device_id AND v.template_version = w.template_version
       AND v.routine = w.routine AND v.precision = w.precision AND v.mode = w.mode
       AND v.variant = w.variant AND v.m = w.m AND v.n = w.n AND v.k = w.k
       AND v.design = 'vendor' AND v.rank_kind = 1
    LEFT JOIN ranked AS o
        ON o.device_id = w.device_id AND o.template_version = w.template_version
       AND o.routine = w.routine AND o.precision = w.precision AND o.mode = w.mode
       AND o.variant = w.variant AND o.m = w.m AND o.n = w.n AND o.k = w.k
       AND o.design <> 'vendor' AND o.rank_kind = 1
    WHERE w.rank_all = 1;
