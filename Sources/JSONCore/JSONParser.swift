/// An error in JSON text, with the byte offset where it was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// It rejects invalid UTF-8, raw control characters in strings, lone surrogates and trailing
/// garbage, and it refuses nesting deeper than `maxDepth` instead of exhausting the stack.
public struct JSONParser {
    public static let defaultMaxDepth = 512

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var copy = text
        return try copy.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: buffer.bindMemory(to: UInt8.self), maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        if reader.index != reader.bytes.count {
            throw JSONParseError(message: "unexpected text after the JSON value", offset: reader.index)
        }
        return value
    }
}

extension JSONParser {
    /// The members of a top-level object named in `keys`, parsed, in the order of `keys` (nil
    /// where absent); every other member is stepped over without being built. For reading a
    /// few fields of a large document: a stored contact's name and emails among its notes and
    /// addresses. Throws where the text is not an object or the members read are not JSON.
    public static func members(_ buffer: UnsafeRawBufferPointer, _ keys: [StaticString]) throws(JSONParseError) -> [JSONValue?] {
        var found = [JSONValue?](repeating: nil, count: keys.count)
        try eachMember(buffer, keys) { (wanted, reader) throws(JSONParseError) in
            if let wanted { found[wanted] = try reader.parseValue(depth: 1) } else { try reader.skipValue() }
        }
        return found
    }

    /// Where the values of a top-level object's members named in `keys` lie in `buffer`, in
    /// the order of `keys` (nil where absent); no value is built, each is only stepped over.
    /// For copying members of JSON the program wrote itself into other JSON.
    public static func memberSpans(_ buffer: UnsafeRawBufferPointer, _ keys: [StaticString]) throws(JSONParseError) -> [Range<Int>?] {
        var found = [Range<Int>?](repeating: nil, count: keys.count)
        try eachMember(buffer, keys) { (wanted, reader) throws(JSONParseError) in
            let start = reader.index
            try reader.skipValue()
            if let wanted { found[wanted] = start..<reader.index }
        }
        return found
    }

    /// Walks a top-level object: for each member, `value` gets the index in `keys` of its key
    /// (nil for another) and the reader at its value, which it must read or step over.
    private static func eachMember(
        _ buffer: UnsafeRawBufferPointer, _ keys: [StaticString], _ value: (Int?, inout Reader) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        var reader = Reader(bytes: buffer.bindMemory(to: UInt8.self), maxDepth: defaultMaxDepth)
        reader.skipWhitespace()
        guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "{") else {
            throw JSONParseError(message: "expected an object", offset: reader.index)
        }
        reader.index += 1
        reader.skipWhitespace()
        if reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "}") { return }
        while true {
            reader.skipWhitespace()
            let wanted = try reader.matchKey(keys)
            reader.skipWhitespace()
            guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: ":") else {
                throw reader.fail("expected ':' after an object key")
            }
            reader.index += 1
            reader.skipWhitespace()
            try value(wanted, &reader)
            reader.skipWhitespace()
            guard reader.index < reader.bytes.count else { throw reader.fail("unterminated object") }
            switch reader.bytes[reader.index] {
            case UInt8(ascii: ","): reader.index += 1
            case UInt8(ascii: "}"): return
            default: throw reader.fail("expected ',' or '}' in an object")
            }
        }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Reads a key and tells which of `keys` it is (a key with escapes is read as none of them).
    mutating func matchKey(_ keys: [StaticString]) throws(JSONParseError) -> Int? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        let start = index + 1
        try skipString()
        let length = index - 1 - start
        for (k, key) in keys.enumerated() where key.utf8CodeUnitCount == length {
            let name = key.utf8Start
            var i = 0
            while i < length && bytes[start + i] == name[i] { i += 1 }
            if i == length { return k }
        }
        return nil
    }

    /// Steps over a string, from its opening quote to past its closing one.
    mutating func skipString() throws(JSONParseError) {
        let start = index
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        throw fail("unterminated string", at: start)
    }

    /// Steps over one value without building it: strings by their quotes, objects and arrays
    /// by their brackets.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw fail("unexpected end of JSON text") }
        switch bytes[index] {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let start = index
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""): try skipString()
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth > maxDepth { throw fail("JSON nested deeper than \(maxDepth) levels") }
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    index += 1
                    if depth == 0 { return }
                default: index += 1
                }
            }
            throw fail("unterminated value", at: start)
        default: _ = try parseValue(depth: 1)
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of JSON text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character '\(printable(bytes[index]))'")
        }
    }

    func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("invalid literal", at: start) }
        let base = literal.utf8Start
        for i in 0..<count where bytes[index + i] != base[i] {
            throw fail("invalid literal", at: start)
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("JSON nested deeper than \(maxDepth) levels") }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key, value))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(members))
            default: throw fail("expected ',' or '}' in an object")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("JSON nested deeper than \(maxDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw fail("expected ',' or ']' in an array")
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number", at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number", at: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index - start > 4096 { throw fail("number literal longer than 4096 characters", at: start) }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        // Fast path: no escapes, plain bytes up to the closing quote.
        var i = index
        var ascii = true
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[index..<i])
                let result: String
                if ascii {
                    result = String(decoding: slice, as: UTF8.self)
                } else {
                    guard let s = String(validating: slice, as: UTF8.self) else {
                        throw fail("invalid UTF-8 in a string", at: start)
                    }
                    result = s
                }
                index = i + 1
                return result
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("raw control character in a string", at: i) }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        if i >= bytes.count { throw fail("unterminated string", at: start) }
        // Slow path with escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<i]))
        index = i
        while true {
            guard index < bytes.count else { throw fail("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                break
            } else if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw fail("unterminated string", at: start) }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape()
                default: throw fail("invalid escape '\\\(printable(e))' in a string", at: index - 2)
                }
            } else if b < 0x20 {
                throw fail("raw control character in a string")
            } else {
                scratch.append(b)
                index += 1
            }
        }
        guard let s = String(validating: scratch, as: UTF8.self) else {
            throw fail("invalid UTF-8 in a string", at: start)
        }
        return s
    }

    mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("invalid hex digit in a \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    mutating func appendUnicodeEscape() throws(JSONParseError) {
        let at = index - 2
        var code = try readHex4()
        if (0xD800...0xDBFF).contains(code) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone surrogate in a \\u escape", at: at)
            }
            index += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate in a \\u escape", at: at) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
            throw fail("lone surrogate in a \\u escape", at: at)
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape", at: at) }
        scratch.append(contentsOf: scalar.utf8)
    }
}
