import Foundation

/// A text file's bytes as the program that wrote it meant them: UTF-8 with or without a BOM,
/// UTF-16 with or without a BOM, else Windows-1252 (what Outlook and Excel write on Windows).
public enum FileText {
    /// The text of `bytes`.
    public static func string(_ bytes: [UInt8]) -> String {
        let utf8 = TextDecoding.normalizeFileEncoding(bytes)
        if let s = UTF8Check.string(utf8) { return s }
        return String(data: Data(utf8), encoding: .windowsCP1252) ?? String(decoding: utf8, as: UTF8.self)
    }
}
