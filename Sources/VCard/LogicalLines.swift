/// Physical lines joined into content lines: folding undone, quoted-printable soft breaks
/// joined, and base64 blocks gathered, with the line number where each began.
enum LogicalLines {
    struct Line {
        var bytes: [UInt8]
        var line: Int
    }

    /// At the CR or LF at `i`: where that line end's last byte is. CRLF, and the CR CR LF some
    /// Windows tools write, are one line end.
    @inline(__always) static func terminatorEnd<C: RandomAccessCollection>(_ b: C, _ i: Int) -> Int
    where C.Element == UInt8, C.Index == Int {
        guard b[i] == 0x0D else { return i }
        if i + 1 < b.count && b[i + 1] == 0x0A { return i + 1 }
        if i + 2 < b.count && b[i + 1] == 0x0D && b[i + 2] == 0x0A { return i + 2 }
        return i
    }

    /// How many line ends `physical` counts in `range`.
    static func lineEnds(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        bytes.withUnsafeBufferPointer { b in
            var n = 0
            var i = range.lowerBound
            while i < range.upperBound {
                let c = b[i]
                if c <= 0x0D && (c == 0x0A || c == 0x0D) {
                    n += 1
                    i = terminatorEnd(b, i)
                }
                i += 1
            }
            return n
        }
    }

    static func split(_ b: [UInt8]) -> [Line] {
        var out: [Line] = []
        out.reserveCapacity(b.count / 32)
        // The content line being gathered; `current` is its first line's number, 0 when none.
        var bytes: [UInt8] = []
        var current = 0
        var isQP = false
        var isBase64 = false
        b.withUnsafeBufferPointer { p in
            func physical(_ range: Range<Int>, _ n: Int) {
                let line = UnsafeBufferPointer(rebasing: p[range])
                if current > 0 {
                    if isQP, bytes.last == UInt8(ascii: "=") {
                        // A soft line break: the value goes on, whatever the next line starts with.
                        bytes.removeLast()
                        bytes.append(contentsOf: line)
                        return
                    }
                    if let f = line.first, f == 0x20 || f == 0x09 {
                        bytes.append(contentsOf: line.dropFirst())
                        if !isQP && !isBase64 { (isQP, isBase64) = encodings(bytes) }
                        return
                    }
                    if isBase64, !line.isEmpty, looksLikeBase64(line) {
                        bytes.append(contentsOf: line)
                        return
                    }
                    out.append(Line(bytes: bytes, line: current))
                    current = 0
                }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    out.append(Line(bytes: [], line: n))
                    return
                }
                bytes = Array(line)
                current = n
                (isQP, isBase64) = encodings(line)
            }
            var start = 0
            var i = 0
            var n = 1
            while i < p.count {
                let c = p[i]
                if c == 0x0A || c == 0x0D {
                    physical(start..<i, n)
                    n += 1
                    i = terminatorEnd(p, i)
                    start = i + 1
                }
                i += 1
            }
            if start < p.count { physical(start..<p.count, n) }
        }
        if current > 0 { out.append(Line(bytes: bytes, line: current)) }
        return out
    }

    /// Whether the parameters before the first ':' ask for quoted-printable or base64.
    static func encodings<C: Collection>(_ b: C) -> (qp: Bool, base64: Bool) where C.Element == UInt8, C.Index == Int {
        var semicolon = false
        var end = b.startIndex
        while end < b.endIndex, b[end] != UInt8(ascii: ":") {
            if b[end] == UInt8(ascii: ";") { semicolon = true }
            end += 1
        }
        guard semicolon, end < b.endIndex else { return (false, false) }
        let head = b[b.startIndex..<end]
        let qp = contains(head, "QUOTED-PRINTABLE")
        let b64 = contains(head, "BASE64") || contains(head, "ENCODING=B;") || endsWith(head, "ENCODING=B")
        return (qp, b64)
    }

    /// ASCII case-insensitive search for an upper-case needle.
    static func contains<C: Collection>(_ h: C, _ needle: StaticString) -> Bool where C.Element == UInt8, C.Index == Int {
        let n = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard h.count >= n.count else { return false }
        var i = h.startIndex
        while i + n.count <= h.endIndex {
            var k = 0
            while k < n.count, upper(h[i + k]) == n[k] { k += 1 }
            if k == n.count { return true }
            i += 1
        }
        return false
    }

    static func endsWith<C: Collection>(_ h: C, _ needle: StaticString) -> Bool where C.Element == UInt8, C.Index == Int {
        let n = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard h.count >= n.count else { return false }
        let start = h.endIndex - n.count
        for k in 0..<n.count where upper(h[start + k]) != n[k] { return false }
        return true
    }

    @inline(__always) static func upper(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? c - 32 : c }

    static func looksLikeBase64(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        b.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "/") || c == UInt8(ascii: "=") || c == 0x20 || c == 0x09
        }
    }
}
