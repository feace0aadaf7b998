/// Why a contact given by a client or a file cannot be accepted.
public struct ContactError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The JSON has the wrong shape (a number where a string belongs): JSON-RPC -32602.
        case invalidParams
        /// The value is well-formed but not acceptable (a blank name): -32003 InvalidData.
        case invalidData
    }

    public var kind: Kind
    /// Where the problem is, as a path such as `contact.phones[1].value`.
    public var field: String
    public var message: String

    public init(_ kind: Kind, field: String, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
