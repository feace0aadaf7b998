import XCTest

@testable import ContactsSupport

final class RadixSortTests: XCTestCase {
    func testSortsAsAStableSortByTheBitsFromTheLowestGiven() {
        var generator = SystemRandomNumberGenerator()
        for (count, lowestBit) in [(0, 0), (1, 0), (2, 63), (1000, 0), (50_000, 28), (50_000, 40), (3000, 60)] {
            var values = (0..<count).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
            // Some values that share every bit from lowestBit up, in an order the sort must keep.
            if count > 10 { for i in 0..<10 { values[i * (count / 10)] = (UInt64(7) << 60) | UInt64(9 - i) } }
            let expected = values.enumerated().sorted { a, b in
                let (x, y) = (a.element >> UInt64(lowestBit), b.element >> UInt64(lowestBit))
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element)
            RadixSort.sort(&values, fromBit: lowestBit)
            XCTAssertEqual(values, expected, "\(count) values from bit \(lowestBit)")
        }
    }

    func testADigitEveryValueSharesIsPassedOver() {
        var values: [UInt64] = [0xFFF0_0000_0000_0003, 0xFFF0_0000_0000_0001, 0xFFF0_0000_0000_0002]
        RadixSort.sort(&values)
        XCTAssertEqual(values, [0xFFF0_0000_0000_0001, 0xFFF0_0000_0000_0002, 0xFFF0_0000_0000_0003])
    }
}
