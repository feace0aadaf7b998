import Glibc

/// Where contactsd keeps things, by the XDG Base Directory rules. The daemon and the client
/// resolve paths here and nowhere else.
public struct XDGPaths: Sendable {
    /// An environment variable's value.
    private let variable: @Sendable (String) -> String?

    public init(environment: [String: String]) { variable = { environment[$0] } }

    /// With the variables looked up one by one (`ProcessEnvironment.variable`): no dictionary
    /// of the environment made, of a start mail clients wait for.
    public init(variable: @escaping @Sendable (String) -> String?) { self.variable = variable }

    private func absolute(_ key: String) -> String? {
        guard let v = variable(key), v.hasPrefix("/") else { return nil }  // relative values are ignored, as the spec says
        return v
    }

    public var home: String {
        if let h = absolute("HOME") { return h }
        if let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    public var dataHome: String { absolute("XDG_DATA_HOME") ?? home + "/.local/share" }
    public var configHome: String { absolute("XDG_CONFIG_HOME") ?? home + "/.config" }
    public var cacheHome: String { absolute("XDG_CACHE_HOME") ?? home + "/.cache" }
    public var runtimeDir: String? { absolute("XDG_RUNTIME_DIR") }

    /// `$XDG_DATA_HOME/contactsd`: the store, photos and the inbox.
    public var dataDirectory: String { dataHome + "/contactsd" }

    /// `$XDG_RUNTIME_DIR/contactsd.sock`, or the data directory when there is no runtime dir.
    public var defaultSocket: String {
        if let r = runtimeDir { return r + "/contactsd.sock" }
        return dataDirectory + "/contactsd.sock"
    }

    /// The socket a client should use: `CONTACTSD_SOCKET`, else the default.
    public var clientSocket: String {
        if let s = variable("CONTACTSD_SOCKET"), !s.isEmpty { return s }
        return defaultSocket
    }
}
