import ContactsCore
import ContactsSupport
import Foundation
import Glibc
import ScanKernel

extension ScanSlot {
    init(rowid: Int64, favorite: Bool, collected: Bool) {
        let marks = (favorite ? Int(SCAN_FAVORITE) : 0) | (collected ? Int(SCAN_COLLECTED) : 0)
        self.init(rowid: rowid, textStart: 0, textCount: 0, keyStart: 0, keyCount: 0, keyInText: false, marks: UInt8(marks))
    }

    var favorite: Bool { Int(marks) & Int(SCAN_FAVORITE) != 0 }
    var collected: Bool { Int(marks) & Int(SCAN_COLLECTED) != 0 }

    /// The entry's slot, its text and key appended to the buffers (the key only when the text
    /// does not start with it).
    init(_ e: SearchIndex.Entry, texts: inout [UInt8], keys: inout [UInt8]) {
        self.init(rowid: e.rowid, favorite: e.favorite, collected: e.collected)
        e.text.withUnsafeBytes { t in e.key.withUnsafeBytes { k in place(text: t, key: k, &texts, &keys) } }
    }

    /// Appends `text` to `texts` and `key` (at most `keyLimit` bytes) to `keys`, unless the
    /// text starts with it, and points the slot at them.
    mutating func place(text: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, _ texts: inout [UInt8], _ keys: inout [UInt8]) {
        textStart = UInt32(truncatingIfNeeded: texts.count)
        textCount = UInt32(truncatingIfNeeded: text.count)
        keyCount = UInt16(key.count)
        texts.append(contentsOf: text)
        // Both hold bytes where memcmp is reached.
        // swift-format-ignore: NeverForceUnwrap
        keyInText = key.count <= text.count && (key.isEmpty || memcmp(key.baseAddress!, text.baseAddress!, key.count) == 0)
        if !keyInText {
            keyStart = UInt32(truncatingIfNeeded: keys.count)
            keys.append(contentsOf: key)
        }
    }

    /// The slot's key, in one of the two buffers.
    func key(texts: UnsafeRawBufferPointer, keys: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let (buffer, start) = keyInText ? (texts, Int(textStart)) : (keys, Int(keyStart))
        return UnsafeRawBufferPointer(rebasing: buffer[start..<(start + Int(keyCount))])
    }

    var textEnd: Int { Int(textStart) + Int(textCount) }

    /// The features of the slot's text, which lies in `buffer`.
    func features(in buffer: UnsafeBufferPointer<UInt8>) -> ScanFeatures {
        var f = ScanFeatures()
        scan_features(buffer.baseAddress.map { $0 + Int(textStart) }, Int(textCount), &f)
        return f
    }
}
