// libFuzzer target: the vCard parser, the mapping to contacts and the writer must never crash,
// whatever bytes they are given, and what the writer produces must parse again.
import VCard

@_cdecl("LLVMFuzzerTestOneInput")
public func vcardFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = VCardParser.parse(bytes)
    let text = VCardWriter.write(result.cards, version: .v4)
    let again = VCardParser.parse(text)
    if again.cards.count != result.cards.count {
        fatalError("written cards do not parse back: \(result.cards.count) became \(again.cards.count)")
    }
    return 0
}
