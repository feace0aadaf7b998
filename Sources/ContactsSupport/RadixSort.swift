/// Sorting 64-bit integers by their digits, twelve bits at a time, least significant first:
/// for a million keys a few passes over memory, where a comparison sort takes twenty.
public enum RadixSort {
    static let digitBits = 12

    /// Sorts `values` by their bits from `lowestBit` up; values equal in those bits keep
    /// their order.
    public static func sort(_ values: inout [UInt64], fromBit lowestBit: Int = 0) {
        precondition((0..<64).contains(lowestBit))
        guard values.count > 1 else { return }
        let mask = UInt64((1 << digitBits) - 1)
        var buffer = [UInt64](repeating: 0, count: values.count)
        var counts = [Int](repeating: 0, count: (1 << digitBits) + 1)
        var shift = lowestBit
        while shift < 64 {
            for i in counts.indices { counts[i] = 0 }
            let shared = values.withUnsafeBufferPointer { v in
                counts.withUnsafeMutableBufferPointer { c in
                    for x in v { c[Int((x >> UInt64(shift)) & mask) + 1] += 1 }
                    let shared = c.contains(v.count)
                    for d in 1..<c.count { c[d] += c[d - 1] }
                    return shared
                }
            }
            // A digit that every value has orders nothing.
            if shared {
                shift += digitBits
                continue
            }
            values.withUnsafeBufferPointer { v in
                buffer.withUnsafeMutableBufferPointer { out in
                    counts.withUnsafeMutableBufferPointer { c in
                        for x in v {
                            let d = Int((x >> UInt64(shift)) & mask)
                            out[c[d]] = x
                            c[d] += 1
                        }
                    }
                }
            }
            swap(&values, &buffer)
            shift += digitBits
        }
    }
}
