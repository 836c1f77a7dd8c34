#!/usr/bin/env bash
# usage (GPU machine, repository root): OUT=DIR probe/vtiled/run.sh [MINUTES]
# A probe tune of probe/vtiled/gemm_vbatched.toml (gemm_vbatched at max sizes 128 and 512, nn and
# tn; the SIMT design with the variant template probe/vtiled/simt/gemm_vtiled.cu.j2: vector reads
# of VEC rows, a cp.async ring of STAGES buffers; the vmma design as shipped) in s and d into a
# scratch database, then per shape the fastest kernel of each VEC and STAGES (None: vmma) and the
# shipped database's winner.
set -u
OUT=${OUT:-/tmp/vt_out}
mkdir -p "$OUT"
db=/tmp/vt_probe.sqlite
python3 -m generator tune --db $db --tuner build/bin/shoal_tune --work /tmp/vt_work --routines gemm_vbatched \
  --precisions s,d --max-minutes "${1:-4}" --search-space probe/vtiled \
  --templates probe/vtiled/simt > "$OUT/vtiled_tune.log" 2>&1
tail -1 "$OUT/vtiled_tune.log"
sqlite3() { python3 -c 'import sqlite3,sys; [print("|".join(map(str,r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$@"; }
echo "status counts:"; sqlite3 $db "select precision, status, count(*) from measurements group by 1,2"
echo "prec|variant|max n|VEC|STAGES|best median ms|kernel"
sqlite3 $db "select precision, variant, m, json_extract(config,'$.VEC') v, json_extract(config,'$.STAGES') st,
  min(median_ms), kernel from measurements where status='ok' group by 1,2,3,4,5 order by 1,2,3,4,5"
echo "shipped winners (tuned_db/shoal.sqlite, the earlier template):"
sqlite3 tuned_db/shoal.sqlite "select w.precision, w.variant, w.m, w.median_ms, w.kernel from winners w join devices d on d.id = w.device_id
  where w.routine='gemm_vbatched' and w.m in (128, 512) and w.variant in ('nn','tn') and d.name like '%H100%' order by 1,2,3"
