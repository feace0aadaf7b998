import Foundation
import Glibc

/// Identifiers for contacts and groups.
public enum Identifier {
    /// An uppercase UUID string, the form contact and group ids take: version 7 (RFC 9562),
    /// so ids made later sort later. A store's index of ids then grows at its end instead of
    /// at random places, which keeps large imports fast. Ids made in the same millisecond are
    /// ordered by a counter that starts at a random point; the last 62 bits are random.
    public static func make() -> String {
        let now = nowMillis()
        let (millis, sequence, a, b) = clock.withLock { $0.next(now: now) }
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
        }
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - i))) }
        bytes[6] = 0x70 | UInt8(sequence >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: sequence)
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let clock = Locked(Clock())

    /// The time and 12-bit sequence of the last id made in this process, and the random bits
    /// the next ids take: read from the kernel 4 KiB at a time (one read per 256 ids, not two
    /// system calls per id; an import makes a million).
    private struct Clock {
        private var lastMillis: UInt64 = 0
        private var sequence: UInt16 = 0
        private var pool = [UInt64](repeating: 0, count: 512)
        private var used = 512

        private mutating func random() -> UInt64 {
            if used == pool.count {
                // The kernel's generator (what getrandom reads), through its device.
                let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                let filled = fd < 0 ? -1 : pool.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if fd >= 0 { close(fd) }
                if filled != pool.count * 8 {
                    var g = SystemRandomNumberGenerator()
                    for i in pool.indices { pool[i] = g.next() }
                }
                used = 0
            }
            defer { used += 1 }
            return pool[used]
        }

        /// The next (time, sequence, random, random) after `now` (milliseconds): a later
        /// millisecond restarts the sequence at a random point below 2048 (so that it has room
        /// to count up); within the same millisecond, or if the clock went back, the sequence
        /// counts on, and when it runs out the time moves one millisecond ahead.
        mutating func next(now: UInt64) -> (UInt64, UInt16, UInt64, UInt64) {
            let a = random(), b = random()
            let randomStart = UInt16(truncatingIfNeeded: b >> 53) & 0x7FF
            if now > lastMillis {
                lastMillis = now
                sequence = randomStart
            } else if sequence < 0xFFF {
                sequence += 1
            } else {
                lastMillis += 1
                sequence = randomStart
            }
            return (lastMillis, sequence, a, b)
        }
    }

    /// Milliseconds since 1970, from the real-time clock.
    private static func nowMillis() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(max(0, ts.tv_sec)) * 1000 + UInt64(max(0, ts.tv_nsec)) / 1_000_000
    }
}
