// libFuzzer target: the CSV reader must never crash or hang, whatever bytes it is given; its
// rows start on lines in order, and rows it writes read back as the same cells.
import ContactsCSV

@_cdecl("LLVMFuzzerTestOneInput")
public func csvFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (records, _) = CSVReader.read(text)
    var last = 0
    for r in records {
        if r.line <= last { fatalError("row lines out of order: \(r.line) after \(last)") }
        last = r.line
        // Cells without a carriage return (a cell's CRLF is read as LF) survive a round trip.
        guard !r.cells.contains(where: { $0.utf8.contains(0x0D) }), r.cells != [""] else { continue }
        let again = CSVReader.read(CSVReader.row(r.cells), delimiter: UInt8(ascii: ",")).records
        if again.map(\.cells) != [r.cells] && !(r.cells.allSatisfy { $0.allSatisfy(\.isWhitespace) }) {
            fatalError("a written row does not read back: \(r.cells) became \(again.map(\.cells))")
        }
    }
    return 0
}
