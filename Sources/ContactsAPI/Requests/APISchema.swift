import JSONCore

/// The JSON Schemas the requests' parameters are described with.
public enum APISchema {
    public static let string: JSONValue = ["type": "string"]
    public static let nullableString: JSONValue = ["type": ["string", "null"]]
    public static let boolean: JSONValue = ["type": "boolean"]
    public static let integer: JSONValue = ["type": "integer"]
    public static let stringArray: JSONValue = ["type": "array", "items": ["type": "string"]]

    /// A whole number within `range`.
    public static func integer(_ range: ClosedRange<Int>) -> JSONValue {
        ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)]
    }

    /// A shape of the document's components.
    public static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
}
