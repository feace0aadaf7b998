import ContactsAPI
import MailShim

/// What GMime reads: the mailboxes of an address header, a Date.
public enum MIME {
    /// GMime cannot be loaded (why, as the loader says it).
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The mailboxes of an address header's value, decoded, in order (a group's members in
    /// its place).
    public static func addresses(_ value: [UInt8]) throws(Unavailable) -> [MailMessage.Address] {
        var list: UnsafeMutablePointer<contactsd_mail_mailbox>?
        var count = 0
        var error = [CChar](repeating: 0, count: 256)
        let rc = (value + [0]).withUnsafeBufferPointer { v in
            v.withMemoryRebound(to: CChar.self) { contactsd_mail_parse_addresses($0.baseAddress, &list, &count, &error, error.count) }
        }
        guard rc == 0 else {
            throw Unavailable(description: "cannot read mail headers: GMime (libgmime-3.0.so.0) \(String(cString: error))")
        }
        defer { contactsd_mail_mailboxes_free(list, count) }
        guard let list else { return [] }
        return (0..<count).map { i in
            MailMessage.Address(String(cString: list[i].address), name: String(cString: list[i].name))
        }
    }

    /// A Date header's value in milliseconds since 1970, or nil when it names no date.
    public static func date(_ value: [UInt8]) -> Int64? {
        var seconds: Int64 = 0
        let rc = (value + [0]).withUnsafeBufferPointer { v in
            v.withMemoryRebound(to: CChar.self) { contactsd_mail_parse_date($0.baseAddress, &seconds) }
        }
        return rc == 0 ? seconds * 1000 : nil
    }
}
