import ContactsSupport

/// A phone's E.164 form and type as a contact's shape shows them, remembered for the phones
/// shown lately: telling the type costs libphonenumber some 40 µs a number, and a page of
/// search results shows the same contacts again and again. The answer depends on the text
/// and the region alone, so what is remembered is never stale.
public enum PhoneDescriptions {
    public struct Description: Sendable, Equatable {
        public var e164: String?
        public var type: PhoneNumberType?
    }

    /// The phone `text` read in `region`.
    public static func of(_ text: String, region: String?) -> Description {
        let key = (region ?? "") + "\u{1}" + text
        if let known = remembered.withLock({ $0[key] }) { return known }
        let n = PhoneNumber.parse(text, region: region)
        let d = Description(e164: n?.e164, type: n?.type)
        remembered.withLock { table in
            // A bounded table, emptied when full: the phones of the pages shown lately.
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = d
        }
        return d
    }

    /// Forgets every phone read so far, and the room they took (the daemon at rest).
    public static func forget() { remembered.withLock { $0 = [:] } }

    static let capacity = 8192
    private static let remembered = Locked<[String: Description]>([:])
}
