import ContactsAPI
import JSONCore

/// A QR code: its modules, dark or light, row by row (the daemon makes them with libqrencode).
struct QRCode {
    let width: Int
    let modules: [Bool]

    /// The code of `text`, as `serve.qrcode` gives it.
    init(_ text: String, inv: Invocation) throws {
        let result = try inv.call(ServeQRCode(text: text))
        let rows = result["rows"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard let width = result["width"]?.intValue, width > 0, rows.count == width, rows.allSatisfy({ $0.utf8.count == width }) else {
            throw CommandFailure("no QR code: the daemon's answer is not one")
        }
        self.width = width
        modules = rows.flatMap { $0.utf8.map { $0 == UInt8(ascii: "1") } }
    }

    /// Whether the module at (x, y) is dark; outside the code (its quiet zone) none is.
    func dark(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < width && modules[y * width + x] }

    /// The code for a terminal: two rows of modules a line, in half blocks, dark on light with
    /// a quiet zone of two modules (what phones' cameras read from a screen).
    var terminalLines: [String] {
        let margin = 2
        return stride(from: -margin, to: width + margin, by: 2).map { y in
            String(
                (-margin..<(width + margin)).map { x -> Character in
                    switch (dark(x, y), dark(x, y + 1)) {
                    case (false, false): "█"
                    case (true, false): "▄"
                    case (false, true): "▀"
                    case (true, true): " "
                    }
                })
        }
    }

    /// The code as a grayscale PNG: `scale` pixels a module, a quiet zone of four modules.
    func png(scale: Int = 8) -> [UInt8] {
        let margin = 4
        let side = (width + 2 * margin) * scale
        var rows: [[UInt8]] = []
        rows.reserveCapacity(side)
        for py in 0..<side {
            let y = py / scale - margin
            rows.append((0..<side).map { px in dark(px / scale - margin, y) ? 0 : 255 })
        }
        return PNGImage.grayscale(width: side, rows: rows)
    }
}
