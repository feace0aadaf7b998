#!/usr/bin/env bash
# Builds the libFuzzer targets (the vCard parser, the JSON-RPC framing and engine, the CSV
# reader, the network face's request path; with the address sanitizer) and runs each for a while,
# seeded from the shared vCard corpus when it is there and from fuzz/seeds otherwise.
# Usage: scripts/fuzz.sh [SECONDS]   (default 30 per target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
out=.build-fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name contactsd)
swiftc "${flags[@]}" -module-name VCard -emit-module -emit-module-path "$out/VCard.swiftmodule" -emit-library -static \
    -o "$out/libVCard.a" Sources/VCard/*.swift
swiftc "${flags[@]}" -I "$out" fuzz/VCardFuzz.swift "$out/libVCard.a" -o "$out/vcard-fuzz"
swiftc "${flags[@]}" -module-name JSONCore -emit-module -emit-module-path "$out/JSONCore.swiftmodule" -emit-library -static \
    -o "$out/libJSONCore.a" Sources/JSONCore/*.swift
# JSONRPC needs only the system-call helper, the log level, Locked and ParkedThreads of ContactsSupport
# (whose other files need its C kernels): those files make the module here.
swiftc "${flags[@]}" -module-name ContactsSupport -emit-module -emit-module-path "$out/ContactsSupport.swiftmodule" -emit-library -static \
    -o "$out/libContactsSupport.a" Sources/ContactsSupport/SystemError.swift Sources/ContactsSupport/LogLevel.swift Sources/ContactsSupport/Locked.swift \
    Sources/ContactsSupport/ParkedThreads.swift
swiftc "${flags[@]}" -I "$out" -module-name JSONRPC -emit-module -emit-module-path "$out/JSONRPC.swiftmodule" -emit-library -static \
    -o "$out/libJSONRPC.a" Sources/JSONRPC/*/*.swift
swiftc "${flags[@]}" -I "$out" fuzz/JSONRPCFuzz.swift "$out/libJSONRPC.a" "$out/libJSONCore.a" "$out/libContactsSupport.a" -o "$out/jsonrpc-fuzz"
# The CSV reader stands alone (Foundation only): its one file makes the module here.
swiftc "${flags[@]}" -module-name ContactsCSV -emit-module -emit-module-path "$out/ContactsCSV.swiftmodule" -emit-library -static \
    -o "$out/libContactsCSV.a" Sources/ContactsCSV/CSVReader.swift
swiftc "${flags[@]}" -I "$out" fuzz/CSVFuzz.swift "$out/libContactsCSV.a" -o "$out/csv-fuzz"
# The network face's request path (CardDAVServer's gate and DAV service, over the books in
# memory its tests use): DAVXML, the request and response types of HTTPServer (its one file
# that needs no C library) and CardDAVServer make their modules here.
swiftc "${flags[@]}" -module-name DAVXML -emit-module -emit-module-path "$out/DAVXML.swiftmodule" -emit-library -static \
    -o "$out/libDAVXML.a" Sources/DAVXML/*.swift
swiftc "${flags[@]}" -module-name HTTPServer -emit-module -emit-module-path "$out/HTTPServer.swiftmodule" -emit-library -static \
    -o "$out/libHTTPServer.a" Sources/HTTPServer/HTTPRequest.swift
swiftc "${flags[@]}" -I "$out" -module-name CardDAVServer -emit-module -emit-module-path "$out/CardDAVServer.swiftmodule" -emit-library -static \
    -o "$out/libCardDAVServer.a" Sources/CardDAVServer/*.swift
swiftc "${flags[@]}" -I "$out" -module-name DeviceRequestFuzz fuzz/DeviceRequestFuzz.swift Tests/CardDAVServerTests/MemoryBooks.swift \
    "$out/libCardDAVServer.a" "$out/libHTTPServer.a" "$out/libDAVXML.a" "$out/libVCard.a" "$out/libContactsSupport.a" -o "$out/device-fuzz"

vcard_seeds=("fuzz/seeds/vcard")
[ -d ../shared/corpus/vcard ] && vcard_seeds+=(../shared/corpus/vcard/*/)
mkdir -p "$out/corpus-vcard" "$out/corpus-jsonrpc" "$out/corpus-csv" "$out/corpus-device"
status=0
ASAN_OPTIONS=detect_leaks=0 "$out/vcard-fuzz" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
    "$out/corpus-vcard" "${vcard_seeds[@]}" || status=$?
ASAN_OPTIONS=detect_leaks=0 "$out/jsonrpc-fuzz" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
    "$out/corpus-jsonrpc" fuzz/seeds/jsonrpc || status=$?
ASAN_OPTIONS=detect_leaks=0 "$out/csv-fuzz" -max_total_time="$seconds" -max_len=16384 -print_final_stats=1 \
    "$out/corpus-csv" fuzz/seeds/csv || status=$?
ASAN_OPTIONS=detect_leaks=0 "$out/device-fuzz" -max_total_time="$seconds" -max_len=16384 -timeout=10 -print_final_stats=1 \
    "$out/corpus-device" fuzz/seeds/device || status=$?
exit $status
