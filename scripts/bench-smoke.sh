#!/usr/bin/env bash
# Runs contacts-bench on a small corpus with the debug build, to prove that every figure it
# reports can still be measured. It measures nothing worth quoting: use `make bench` for that.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product contacts-bench >/dev/null
swift build --product contactsd >/dev/null
swift build --product contactsd-imaging >/dev/null
swift build --product contactsctl >/dev/null
swift build --product contactsctl-full >/dev/null
out=$(mktemp)
trap 'rm -f "$out"' EXIT
BENCH_IDLE_SECONDS=3 "$(swift build --show-bin-path)/contacts-bench" --contacts 1000 --json "$out"
python3 - "$out" <<'PY'
import json, sys
figures = json.load(open(sys.argv[1]))
wanted = ["storeInsertSeconds", "storeSearch.word.p50", "search.word.p50", "search.CJK.p99", "importCallSeconds", "importStoreSeconds", "dropFolderImportSeconds", "dropFolderImportWithNumbersSeconds",
          "getSequentialPerSecond", "getPipelinedPerSecond", "exportSeconds", "exportFileSeconds", "exportPeakRSSMiB", "queryEmailMs", "queryEmailAllMs", "abookQueryMs", "daemonRSSMiB", "readyMs",
          "setPhoto12MPMs", "thumbnailColdMs", "thumbnailCachedP50Ms", "historyP99Ms", "undoImportSeconds",
          "historyStoreRatio", "realisticDuplicatesSeconds", "duplicatesCallSeconds", "serveListingMs", "serveMultiget100Ms", "serveQueryMs", "serveNoOpSyncMs", "radicaleListingMs", "vdirsyncerFromContactsdSeconds", "importStoreWithHistorySeconds", "importStoreWithoutHistorySeconds",
          "viewsImportBareSeconds", "viewsImportWatchedSeconds", "viewsEditAloneMs", "viewsEditWithViewsMs", "viewsHeapBytesPerView",
          "importTypedFieldsSeconds", "dropImportTypedFieldsSeconds", "dropImportTypedFieldsPlainSeconds",
          "googleFirstDownloadListRequests", "googleNoOpRequests", "googleWriteRequestsFor1000",
          "mailHarvestSeconds", "mailNotmuchSeconds", "mailQueryEmailMs", "mailLbdbqMs", "mailAbookMs", "mailRSSAtRestMiB"]
missing = [k for k in wanted if not isinstance(figures.get(k), (int, float)) or figures[k] <= 0]
if not isinstance(figures.get("idleWakeups"), (int, float)):
    missing.append("idleWakeups")
if missing:
    sys.exit("bench smoke run: no figure for " + ", ".join(missing))
print("bench smoke run: %d figures" % len(figures))
PY
