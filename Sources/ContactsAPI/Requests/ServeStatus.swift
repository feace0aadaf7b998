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
                "lan": ServeShape.lan,
                "books": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["name", "url"], "properties": ["name": APISchema.string, "url": APISchema.string],
                    ],
                ],
            ],
        ],
        summary:
            "Where the store is served over CardDAV: the loopback address set, whether it listens, each book's URL, and the LAN face (lan: where, its URL, certificate and devices; null while off)."
    )

    public init() {}
}
