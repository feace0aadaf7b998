/// What a file to import holds, told by its content, not its name: a Google CSV saved as
/// `.txt` is a CSV, and a `.vcf` without a card is nothing to import.
enum ImportFormat: Equatable {
    case vcard, csv, json
    /// Only white space.
    case empty
    /// Text that is none of the three.
    case unknown

    /// How much of the start of a file is looked at.
    static let sniffBytes = 64 << 10

    init(of bytes: [UInt8], name: String) {
        // UTF-16 text (a BOM, or NULs between ASCII letters) is looked at without its NULs.
        var head = Array(bytes.prefix(Self.sniffBytes))
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || head.prefix(64).contains(0) {
            head.removeAll { $0 == 0 || $0 == 0xFF || $0 == 0xFE }
        }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        guard let first = head.firstIndex(where: { !Self.isSpace($0) }) else {
            self = bytes.count > head.count ? .unknown : .empty
            return
        }
        if head[first] == UInt8(ascii: "[") {
            self = .json
        } else if Self.contains(head, "BEGIN:VCARD") {
            self = .vcard
        } else if Self.looksLikeCSV(head[first...]) || name.lowercased().hasSuffix(".csv") {
            self = .csv
        } else {
            self = .unknown
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// Whether `text` holds `needle`, ASCII case ignored.
    private static func contains(_ text: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard text.count >= n.count else { return false }
        for i in 0...(text.count - n.count) where text[i] | 0x20 == n[0] | 0x20 {
            var j = 1
            while j < n.count && text[i + j] | 0x20 == n[j] | 0x20 { j += 1 }
            if j == n.count { return true }
        }
        return false
    }

    /// A first line of several comma-, semicolon- or tab-separated columns, as an export's
    /// header is.
    private static func looksLikeCSV(_ text: ArraySlice<UInt8>) -> Bool {
        let line = text.prefix { $0 != 0x0A && $0 != 0x0D }
        let separators = line.filter { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") || $0 == 0x09 }.count
        return separators >= 2
    }

    /// What the error says of a file of this kind that has nothing to import.
    var nothingToImport: String? {
        switch self {
        case .empty: "the file is empty"
        case .unknown: "no vCard, CSV or JSON found (no BEGIN:VCARD line, no CSV header, no JSON array)"
        case .vcard, .csv, .json: nil
        }
    }
}
