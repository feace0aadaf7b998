import Glibc

/// An address as a message gives it: the address and the name beside it (empty when none).
public struct MailAddress: Sendable, Equatable, Hashable {
    public var address: String
    public var name: String

    public init(address: String, name: String = "") {
        self.address = address
        self.name = name
    }

    /// The address as the store keys it: lower-cased as SQLite's `lower` does (ASCII only),
    /// so that the key made here and the one its triggers make agree.
    public var key: String { Self.key(address) }

    public static func key(_ address: String) -> String {
        String(decoding: address.utf8.map(folded), as: UTF8.self)
    }

    /// One byte of the key: A to Z lower-cased, every other byte as it is.
    @inline(__always) static func folded(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
}

/// What one message tells the store about the people in it.
public struct MailSighting: Sendable, Equatable {
    /// The message's id (its Message-ID, or a digest of its headers when it has none): a
    /// message is counted once however often it is read.
    public var messageID: String
    /// When it was sent, in milliseconds since 1970 (a date in the future counts as now).
    public var date: Int64
    /// Those it came from: counted as heard from.
    public var heardFrom: [MailAddress]
    /// Those the user wrote it to: counted as written to.
    public var writtenTo: [MailAddress]

    public init(messageID: String, date: Int64, heardFrom: [MailAddress] = [], writtenTo: [MailAddress] = []) {
        self.messageID = messageID
        self.date = date
        self.heardFrom = heardFrom
        self.writtenTo = writtenTo
    }
}

/// What recording messages did.
public struct MailRecording: Sendable, Equatable {
    /// Messages counted now.
    public var messages = 0
    /// Messages counted before (the same id), not counted again.
    public var repeated = 0
    /// Sightings of addresses counted.
    public var addresses = 0
    /// The contacts made for addresses no contact had (collected).
    public var collected: [String] = []

    public init() {}
}

/// How often and when an address was seen in mail.
public struct MailStatistics: Sendable, Equatable {
    /// Messages it sent (that the user received).
    public var received = 0
    public var lastReceived: Int64?
    /// Messages the user wrote to it.
    public var sent = 0
    public var lastSent: Int64?
    /// The scores as of `lastReceived` and `lastSent`: each sighting counts one, halved for
    /// every `halfLife` before the latest.
    var receivedScore = 0.0
    var sentScore = 0.0

    public init() {}

    /// How long it takes a sighting to count half as much.
    public static let halfLife: Double = 60 * 86_400_000

    mutating func count(at t: Int64, written: Bool) {
        if written {
            Self.add(at: t, to: &sentScore, latest: &lastSent)
            sent += 1
        } else {
            Self.add(at: t, to: &receivedScore, latest: &lastReceived)
            received += 1
        }
    }

    /// Adds a sighting at `t` to a score kept as of `latest`, in whatever order sightings come.
    static func add(at t: Int64, to score: inout Double, latest: inout Int64?) {
        guard let last = latest else {
            (score, latest) = (1, t)
            return
        }
        if t >= last {
            score = score * fade(Double(t - last)) + 1
            latest = t
        } else {
            score += fade(Double(last - t))
        }
    }

    static func fade(_ millis: Double) -> Double { exp2(-millis / halfLife) }

    /// Where the address ranks: written to comes before only heard from, which comes before
    /// never seen (0); within each, the score (brought to one moment, so comparable) decides.
    /// (The value is in [0, 3).)
    public var rank: Double {
        func squeezed(_ score: Double, _ at: Int64?) -> Double {
            // Compared as logarithms at one moment (fading is the same factor for all, so any
            // moment orders them alike), squeezed into (0, 1) keeping the order.
            let v = log2(max(score, .leastNormalMagnitude)) - Double(Self.epoch - (at ?? Self.epoch)) / Self.halfLife
            return 1 / (1 + exp2(-v / 64))
        }
        if sent > 0 { return 2 + squeezed(sentScore, lastSent) }
        if received > 0 { return 1 + squeezed(receivedScore, lastReceived) }
        return 0
    }

    /// The moment scores are compared at (any fixed one will do).
    static let epoch: Int64 = 1_800_000_000_000
}
