/// What a write is recorded as made by when its caller does not say: `rpc`, or, while a
/// client's call runs, `rpc:PID` of that client (`CommitOrigin.$current.withValue`), so that a
/// program can tell its own writes from others' in the history, the notifications and its
/// views (`excludeOrigin`).
public enum CommitOrigin {
    @TaskLocal public static var current = "rpc"

    /// The origin of a call from the process `pid` over the socket.
    public static func client(_ pid: Int32) -> String { "rpc:\(pid)" }
}
