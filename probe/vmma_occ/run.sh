#!/usr/bin/env bash
# usage (GPU machine, repository root): OUT=DIR probe/vmma_occ/run.sh [MINUTES]
# A probe tune of probe/vmma_occ/gemm_vbatched.toml (gemm_vbatched d, maxima 128 and 512, nn and
# tn) into a scratch database with the template of the tree, then per shape the fastest kernel
# of each DIM_X / OCC / STAGES beside the shipped database's winner.
set -u
OUT=${OUT:-/tmp/vmma_out}
mkdir -p "$OUT"
db=/tmp/vmma_probe.sqlite
rm -f $db
python3 -m generator tune --db $db --tuner build/bin/shoal_tune --work /tmp/vmma_work --routines gemm_vbatched \
  --precisions d --max-minutes "${1:-4}" --search-space probe/vmma_occ > "$OUT/vmma_tune.log" 2>&1
tail -1 "$OUT/vmma_tune.log"
sqlite3() { python3 -c 'import sqlite3,sys; [print("|".join(map(str,r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$@"; }
echo "status counts:"; sqlite3 $db "select precision, status, count(*) from measurements group by 1,2"
sqlite3 $db "select status, reason, kernel from measurements where status not in ('ok','pruned') limit 10"
echo "variant|max n|DIM_X|OCC|STAGES|best median ms|kernel"
sqlite3 $db "select variant, m, json_extract(config,'$.DIM_X'), json_extract(config,'$.OCC') o, json_extract(config,'$.STAGES') st,
  min(median_ms), kernel from measurements where status='ok' and design='vmma' group by 1,2,3,4,5 order by 1,2,3,4,5"
echo "top 5 per shape:"
sqlite3 $db "select variant, m, median_ms, kernel from (select *, row_number() over (partition by variant, m order by median_ms) r
  from measurements where status='ok') where r <= 5 order by 1,2,3"
echo "shipped winners (tuned_db/shoal.sqlite):"
sqlite3 tuned_db/shoal.sqlite "select w.precision, w.variant, w.m, w.median_ms, w.kernel from winners w join devices d on d.id = w.device_id
  where w.routine='gemm_vbatched' and w.m in (128, 512) and w.variant in ('nn','tn') and w.precision='d' and d.name like '%H100%' order by 1,2,3"
