import Foundation

/// A small PNG that claims a huge canvas, for tests of decompression bombs: zlib (through
/// python3) compresses its all-zero rows about 1000:1. `colorType` 0 is grey, 6 RGBA (whose
/// zeros are fully transparent).
public enum PNGBomb {
    public static func make(width: Int, height: Int, colorType: UInt8 = 0) throws -> [UInt8] {
        let pixelBytes = colorType == 6 ? 4 : 1
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            out += be32(data.count) + body + be32(Int(crc32(body)))
        }
        chunk("IHDR", be32(width) + be32(height) + [8, colorType, 0, 0, 0])
        let script =
            "import sys, zlib\nc = zlib.compressobj(9)\nrow = bytes(\(width * pixelBytes + 1))\n"
            + "sys.stdout.buffer.write(b''.join(c.compress(row) for _ in range(\(height))) + c.flush())"
        let r = Process()
        r.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        r.arguments = ["python3", "-c", script]
        let pipe = Pipe()
        r.standardOutput = pipe
        try r.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        r.waitUntilExit()
        chunk("IDAT", [UInt8](data))
        chunk("IEND", [])
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[i] = c
        }
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
