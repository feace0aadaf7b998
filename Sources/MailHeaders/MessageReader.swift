import ContactsAPI
import ContactsSupport

/// Why a message cannot be read: the header (and line) at fault, and what is wrong with it.
public struct MailReadError: Error, CustomStringConvertible, Sendable {
    public var header: String?
    public var line: Int?
    public var message: String

    public var description: String {
        var at: [String] = []
        if let line { at.append("line \(line)") }
        if let header { at.append(header) }
        return (at.isEmpty ? "" : at.joined(separator: ", ") + ": ") + message
    }
}

/// A message's headers as `mail.add` takes them.
public enum MessageReader {
    /// The headers that name people.
    static let addressHeaders = ["From", "To", "Cc", "Bcc", "Reply-To"]
    /// The longest address there is (RFC 5321: 254 bytes); longer is no address.
    static let addressLimit = 254
    /// Names are cut to this many characters.
    static let nameLimit = 200
    /// At most this many addresses a header (a list of thousands is a mailing, not people).
    static let perHeader = 1000

    /// The message whose header `bytes` begin with. `strict` (one message a person gave):
    /// a line that is no header, or a From with no address, is an error naming it; otherwise
    /// what can be read is (and a message with no address at all is an error).
    public static func message(_ bytes: UnsafeRawBufferPointer, strict: Bool) throws -> MailMessage {
        let block = HeaderBlock(bytes)
        if strict, let (line, text) = block.broken.first {
            throw MailReadError(header: nil, line: line, message: "'\(text)' is neither a header nor the fold of one")
        }
        if block.fields.isEmpty {
            throw MailReadError(
                header: nil, line: nil, message: bytes.isEmpty ? "the message is empty" : "no header: this is no mail message")
        }
        let id = block.first("Message-ID").map { Self.messageID($0.value) } ?? ""
        var m = MailMessage(id: id.isEmpty ? "sha256:" + SHA256.hex(UnsafeRawBufferPointer(rebasing: bytes[..<block.length])) : id)
        m.date = block.first("Date").flatMap { MIME.date($0.value) }
        for header in addressHeaders {
            var list: [MailMessage.Address] = []
            for field in block.all(header) {
                let found = try MIME.addresses(field.value)
                let usable = found.filter { $0.address.utf8.count <= addressLimit && $0.address.contains("@") }
                if strict && header == "From" && usable.isEmpty {
                    throw MailReadError(
                        header: "From", line: field.line,
                        message:
                            "no mail address in '\(HeaderBlock.text(UnsafeRawBufferPointer(start: field.value, count: field.value.count)))'"
                    )
                }
                for a in usable.prefix(perHeader - list.count) {
                    list.append(MailMessage.Address(a.address, name: String(a.name.prefix(nameLimit))))
                }
            }
            switch header {
            case "From": m.from = list
            case "To": m.to = list
            case "Cc": m.cc = list
            case "Bcc": m.bcc = list
            default: m.replyTo = list
            }
        }
        if strict && block.first("From") == nil {
            throw MailReadError(header: "From", line: nil, message: "the message has no From header")
        }
        if m.from.isEmpty && m.to.isEmpty && m.cc.isEmpty && m.bcc.isEmpty && m.replyTo.isEmpty {
            throw MailReadError(header: nil, line: nil, message: "no header names a mail address")
        }
        return m
    }

    public static func message(_ bytes: [UInt8], strict: Bool) throws -> MailMessage {
        try bytes.withUnsafeBytes { try message($0, strict: strict) }
    }

    /// A Message-ID's id: what is between its angle brackets, else the value trimmed.
    static func messageID(_ value: [UInt8]) -> String {
        var text = String(decoding: value, as: UTF8.self).trimmingWhitespace()
        if let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            text = String(text[text.index(after: open)..<close])
        }
        return String(decoding: text.utf8.prefix(MailMessage.idLimit), as: UTF8.self)
    }
}
