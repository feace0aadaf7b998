import JSONCore
import JSONRPC

/// What the photo requests share.
public enum PhotoShape {
    static let unsupported = RPCError(.unsupportedMedia, "Not a JPEG, PNG, WebP, HEIC or GIF image, or one that cannot be decoded")
}
