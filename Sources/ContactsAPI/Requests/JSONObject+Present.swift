import JSONCore

extension JSONObject {
    /// The members given a value, in order: a request's params leave out what it does not say.
    public static func present(_ members: KeyValuePairs<String, JSONValue?>) -> JSONObject {
        JSONObject(members.compactMap { m in m.value.map { JSONObject.Member(m.key, $0) } })
    }
}
