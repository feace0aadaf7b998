import JSONCore
import JSONRPC

/// `serve.status`: where the store is served over CardDAV.
public struct ServeStatus: ParameterlessRequest {
    public static let about = APIMethod(
        "serve.status", result: "serve",
        schema: [
            "type": "object",
            "required": ["listen", "url", "listening", "books"],
            "properties": [
                "listen": APISchema.nullableString, "url": APISchema.nullableString, "listening": APISchema.boolean,
                "books": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["name", "url"], "properties": ["name": APISchema.string, "url": APISchema.string],
                    ],
                ],
            ],
        ],
        summary: "Where the store is served over CardDAV: the address set, whether it listens, and each book's URL.")

    public init() {}
}
