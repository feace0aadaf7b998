/// What a JSON value is built into, a piece at a time: JSON text (`JSONTextBuilder`) or a
/// `JSONValue` tree (`JSONTreeBuilder`). A shape described once against this protocol gives
/// both. Inside an object every piece has a key; inside an array none has.
public protocol JSONBuilding {
    mutating func beginObject(_ key: StaticString?)
    mutating func endObject()
    mutating func beginArray(_ key: StaticString?)
    mutating func endArray()
    /// A string, or `null` for nil.
    mutating func string(_ key: StaticString?, _ value: String?)
    /// An integer, or `null` for nil.
    mutating func int(_ key: StaticString?, _ value: Int?)
    mutating func bool(_ key: StaticString?, _ value: Bool)
    /// A value that is JSON text already: a member of JSON this program wrote (a stored
    /// contact's emails), copied rather than read and written again.
    mutating func encoded(_ key: StaticString?, _ text: UnsafeRawBufferPointer)
}

extension JSONBuilding {
    /// An array of strings.
    public mutating func strings(_ key: StaticString?, _ values: [String]) {
        beginArray(key)
        for v in values { string(nil, v) }
        endArray()
    }
}

/// Builds JSON text directly, with no tree in between (this runs for every contact an
/// import stores).
public struct JSONTextBuilder: JSONBuilding {
    public private(set) var writer: JSONWriter
    /// For each open object or array, whether nothing is in it yet.
    private var empty: [Bool] = []

    public init(capacity: Int = 512) { writer = JSONWriter(capacity: capacity) }

    public var string: String { writer.string }

    private mutating func next(_ key: StaticString?) {
        guard !empty.isEmpty else { return }
        if let key {
            writer.writeKey(key, first: &empty[empty.count - 1])
        } else {
            if !empty[empty.count - 1] { writer.writeRaw(",") }
            empty[empty.count - 1] = false
        }
    }

    public mutating func beginObject(_ key: StaticString?) {
        next(key)
        writer.writeRaw("{")
        empty.append(true)
    }

    public mutating func endObject() {
        empty.removeLast()
        writer.writeRaw("}")
    }

    public mutating func beginArray(_ key: StaticString?) {
        next(key)
        writer.writeRaw("[")
        empty.append(true)
    }

    public mutating func endArray() {
        empty.removeLast()
        writer.writeRaw("]")
    }

    public mutating func string(_ key: StaticString?, _ value: String?) {
        next(key)
        writer.writeString(value)
    }

    public mutating func int(_ key: StaticString?, _ value: Int?) {
        next(key)
        writer.writeInt(value)
    }

    public mutating func bool(_ key: StaticString?, _ value: Bool) {
        next(key)
        writer.writeRaw(value ? "true" : "false")
    }

    public mutating func encoded(_ key: StaticString?, _ text: UnsafeRawBufferPointer) {
        next(key)
        writer.writeRaw(text)
    }
}

/// Builds a `JSONValue` tree.
public struct JSONTreeBuilder: JSONBuilding {
    private struct Open {
        var key: StaticString?
        var isArray: Bool
        var members: [JSONObject.Member] = []
        var items: [JSONValue] = []
    }

    private var open: [Open] = []
    /// The value once its outermost object or array has ended.
    public private(set) var value: JSONValue = .null

    public init() {}

    private mutating func add(_ key: StaticString?, _ v: JSONValue) {
        guard !open.isEmpty else { return value = v }
        let top = open.count - 1
        if open[top].isArray {
            open[top].items.append(v)
        } else {
            // Keys are the shape's own literals: ASCII, never without a key inside an object.
            open[top].members.append(.init(key.map { $0.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } } ?? "", v))
        }
    }

    public mutating func beginObject(_ key: StaticString?) {
        open.append(Open(key: key, isArray: false))
        open[open.count - 1].members.reserveCapacity(8)
    }

    public mutating func endObject() {
        let done = open.removeLast()
        add(done.key, .object(JSONObject(done.members)))
    }

    public mutating func beginArray(_ key: StaticString?) { open.append(Open(key: key, isArray: true)) }

    public mutating func endArray() {
        let done = open.removeLast()
        add(done.key, .array(done.items))
    }

    public mutating func string(_ key: StaticString?, _ value: String?) { add(key, value.map(JSONValue.string) ?? .null) }
    public mutating func int(_ key: StaticString?, _ value: Int?) { add(key, value.map { .int($0) } ?? .null) }
    public mutating func bool(_ key: StaticString?, _ value: Bool) { add(key, .bool(value)) }
    /// Text that is not JSON (which the program's own JSON never is) becomes `null`.
    public mutating func encoded(_ key: StaticString?, _ text: UnsafeRawBufferPointer) { add(key, (try? JSONParser.parse(text)) ?? .null) }
}
