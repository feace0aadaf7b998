/// How far a sync has come, told every hundred cards.
public struct SyncProgress: Sendable, Equatable {
    public enum Phase: String, Sendable {
        case download, upload
    }

    public var phase: Phase
    public var done: Int
    /// Nil while the server's answer is still being read (its length is not known yet).
    public var total: Int?

    public init(phase: Phase, done: Int, total: Int?) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
