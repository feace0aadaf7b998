/// Aligned columns that fit the terminal: when the table is too wide, the widest columns give
/// up space first and their cells end in "…".
struct Table {
    var headers: [String]
    var rows: [[String]] = []
    /// Columns that may be shortened, in the order they give up space.
    var shrinkable: [Int]

    init(headers: [String], shrinkable: [Int]) {
        self.headers = headers
        self.shrinkable = shrinkable
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render(width: Int?, header: (String) -> String) -> [String] {
        var widths = headers.indices.map { i in max(DisplayWidth.of(headers[i]), rows.map { DisplayWidth.of($0[i]) }.max() ?? 0) }
        let gap = 2
        if let width {
            var total = widths.reduce(0, +) + gap * (widths.count - 1)
            while total > width {
                // Shrink the widest shrinkable column by one; stop at a sensible minimum.
                guard let i = shrinkable.filter({ widths[$0] > 8 }).max(by: { widths[$0] < widths[$1] }) else { break }
                widths[i] -= 1
                total -= 1
            }
        }
        func line(_ cells: [String], style: (String) -> String = { $0 }) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                let text = DisplayWidth.truncate(cell, to: widths[i])
                let isLast = i == cells.count - 1
                out += style(text)
                if !isLast { out += String(repeating: " ", count: widths[i] - DisplayWidth.of(text) + gap) }
            }
            return out
        }
        var out = [line(headers, style: header)]
        for r in rows { out.append(line(r)) }
        return out
    }
}

/// Terminal column widths: East Asian wide characters take two columns, combining marks none.
enum DisplayWidth {
    static func of(_ s: String) -> Int { s.unicodeScalars.reduce(0) { $0 + width($1) } }

    static func width(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v < 0x20 { return 0 }
        if v < 0x300 { return 1 }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    static func truncate(_ s: String, to columns: Int) -> String {
        guard of(s) > columns else { return s }
        var out = String.UnicodeScalarView()
        var used = 0
        for u in s.unicodeScalars {
            let w = width(u)
            if used + w > columns - 1 { break }
            out.append(u)
            used += w
        }
        return String(out) + "…"
    }
}
