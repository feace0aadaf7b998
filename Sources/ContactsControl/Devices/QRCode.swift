import Glibc
import QRShim

/// A QR code: its modules, dark or light, row by row (libqrencode makes them).
struct QRCode {
    let width: Int
    let modules: [Bool]

    init(_ text: String) throws(CommandFailure) {
        var why = [CChar](repeating: 0, count: 256)
        var data: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        guard contactsd_qr_encode(text, &data, &width, &why, why.count) == 0, let data else {
            throw CommandFailure("no QR code: \(String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { free(data) }
        self.width = Int(width)
        modules = UnsafeBufferPointer(start: data, count: Int(width) * Int(width)).map { $0 != 0 }
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
