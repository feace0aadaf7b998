import SHA256Kernel

/// SHA-256 (FIPS 180-4), for content addresses of photos and stable ids of cards without a UID.
/// Blocks go through the processor's SHA instructions where it has them (several times faster),
/// else through the portable rounds below.
public struct SHA256 {
    /// Whether this processor has the SHA instructions.
    static let kernelAvailable = sha256_kernel_available()

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
        0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
        0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
        0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
        0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
        0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `data` as 64 lowercase hex digits.
    public static func hex<C: Collection>(_ data: C) -> String where C.Element == UInt8 {
        let d = digest(data)
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { out in
            for (i, b) in d.enumerated() {
                out[2 * i] = digits[Int(b >> 4)]
                out[2 * i + 1] = digits[Int(b & 15)]
            }
            return 64
        }
    }

    public static func digest<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        // Hashed in place when the bytes are contiguous; a generic collection from another
        // module is copied once (element by element it costs more than the hashing).
        if let d = data.withContiguousStorageIfAvailable({ digest(UnsafeRawBufferPointer($0)) }) { return d }
        return Array(data).withUnsafeBytes { digest($0) }
    }

    /// The digest of the bytes: whole blocks straight from the buffer, then the last one or
    /// two, padded, from a small one of their own.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { digest(bytes, withKernel: kernelAvailable) }

    static func digest(_ bytes: UnsafeRawBufferPointer, withKernel: Bool) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
        )
        let whole = bytes.count / 64 * 64
        if withKernel { return digestWithKernel(bytes, whole: whole) }
        k.withUnsafeBufferPointer { k in
            var offset = 0
            while offset < whole {
                compress(&h, UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 64)]), k)
                offset += 64
            }
            let (tail, blocks) = paddedTail(bytes, whole: whole)
            tail.withUnsafeBytes { t in
                for b in 0..<blocks { compress(&h, UnsafeRawBufferPointer(rebasing: t[(b * 64)..<(b * 64 + 64)]), k) }
            }
        }
        return bigEndianBytes([h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7])
    }

    private static func digestWithKernel(_ bytes: UnsafeRawBufferPointer, whole: Int) -> [UInt8] {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        // The state has eight words, `whole > 0` means bytes is not empty, and the padded tail is never empty.
        // swift-format-ignore: NeverForceUnwrap
        state.withUnsafeMutableBufferPointer { st in
            if whole > 0 { sha256_kernel_blocks(st.baseAddress!, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), whole / 64) }
            let (tail, blocks) = paddedTail(bytes, whole: whole)
            tail.withUnsafeBufferPointer { sha256_kernel_blocks(st.baseAddress!, $0.baseAddress!, blocks) }
        }
        return bigEndianBytes(state)
    }

    /// The bytes after the last whole block, padded and with the message length: one or two blocks.
    private static func paddedTail(_ bytes: UnsafeRawBufferPointer, whole: Int) -> (bytes: [UInt8], blocks: Int) {
        var tail = [UInt8](repeating: 0, count: 128)
        let rest = bytes.count - whole
        for i in 0..<rest { tail[i] = bytes[whole + i] }
        tail[rest] = 0x80
        let blocks = rest + 9 <= 64 ? 1 : 2
        let bitLength = UInt64(bytes.count) &* 8
        for i in 0..<8 { tail[blocks * 64 - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8)) }
        return (tail, blocks)
    }

    private static func bigEndianBytes(_ words: [UInt32]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        for (i, v) in words.enumerated() {
            out[4 * i] = UInt8(truncatingIfNeeded: v >> 24)
            out[4 * i + 1] = UInt8(truncatingIfNeeded: v >> 16)
            out[4 * i + 2] = UInt8(truncatingIfNeeded: v >> 8)
            out[4 * i + 3] = UInt8(truncatingIfNeeded: v)
        }
        return out
    }

    /// One 64-byte block into the state.
    @inline(__always)
    private static func compress(
        _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
            for i in 16..<64 {
                let x = w[i - 15], y = w[i - 2]
                let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                hh = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ t2
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
