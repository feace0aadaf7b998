import JSONCore

/// Named parameters of a request, read with errors that name the offending field.
public struct RPCParams: Sendable {
    public let object: JSONObject

    public init(_ object: JSONObject) { self.object = object }

    public subscript(key: String) -> JSONValue? {
        guard let v = object[key], !v.isNull else { return nil }
        return v
    }

    public func has(_ key: String) -> Bool { self[key] != nil }

    public func string(_ key: String) throws(RPCError) -> String {
        guard let v = self[key] else { throw .invalidParams("'\(key)' is required", field: key) }
        guard let s = v.stringValue else { throw .invalidParams("'\(key)' must be a string, not \(v.typeName)", field: key) }
        return s
    }

    public func optionalString(_ key: String) throws(RPCError) -> String? {
        guard let v = self[key] else { return nil }
        guard let s = v.stringValue else { throw .invalidParams("'\(key)' must be a string, not \(v.typeName)", field: key) }
        return s
    }

    public func bool(_ key: String) throws(RPCError) -> Bool {
        guard let v = self[key] else { throw .invalidParams("'\(key)' is required", field: key) }
        guard let b = v.boolValue else { throw .invalidParams("'\(key)' must be a boolean, not \(v.typeName)", field: key) }
        return b
    }

    public func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        guard self[key] != nil else { return nil }
        return try bool(key)
    }

    public func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        guard let v = self[key] else { return nil }
        guard let i = v.intValue else {
            throw .invalidParams("'\(key)' must be a whole number, not \(v.typeName == "number" ? v.description : v.typeName)", field: key)
        }
        guard range.contains(i) else {
            throw .invalidParams("'\(key)' must be between \(range.lowerBound) and \(range.upperBound), not \(i)", field: key)
        }
        return i
    }

    /// A number (whole or not) in `range`, or nil when absent.
    public func optionalDouble(_ key: String, in range: ClosedRange<Double>) throws(RPCError) -> Double? {
        guard let v = self[key] else { return nil }
        guard let d = v.doubleValue else { throw .invalidParams("'\(key)' must be a number, not \(v.typeName)", field: key) }
        guard range.contains(d) else {
            throw .invalidParams("'\(key)' must be between \(range.lowerBound) and \(range.upperBound), not \(v.description)", field: key)
        }
        return d
    }

    /// A whole number in `range`, which must be given.
    public func int(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int {
        guard let i = try optionalInt(key, in: range) else { throw .invalidParams("'\(key)' is required", field: key) }
        return i
    }

    public func stringArray(_ key: String) throws(RPCError) -> [String] {
        guard let v = self[key] else { throw .invalidParams("'\(key)' is required", field: key) }
        guard let a = v.arrayValue else { throw .invalidParams("'\(key)' must be an array of strings, not \(v.typeName)", field: key) }
        var out: [String] = []
        out.reserveCapacity(a.count)
        for (i, e) in a.enumerated() {
            guard let s = e.stringValue else {
                throw .invalidParams("'\(key)[\(i)]' must be a string, not \(e.typeName)", field: "\(key)[\(i)]")
            }
            out.append(s)
        }
        return out
    }

    public func objectValue(_ key: String) throws(RPCError) -> JSONObject {
        guard let v = self[key] else { throw .invalidParams("'\(key)' is required", field: key) }
        guard let o = v.objectValue else { throw .invalidParams("'\(key)' must be an object, not \(v.typeName)", field: key) }
        return o
    }
}
