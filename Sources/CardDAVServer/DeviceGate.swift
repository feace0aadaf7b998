import Foundation
import HTTPServer

/// What a device signed in may do: its name (which its writes are recorded under), the books
/// it sees (nil: all) and whether it may only read.
public struct DeviceAccess: Sendable, Equatable {
    public var name: String
    public var books: Set<String>?
    public var readOnly: Bool

    public init(name: String, books: Set<String>?, readOnly: Bool) { (self.name, self.books, self.readOnly) = (name, books, readOnly) }
}

/// The devices a gate lets in, as whoever keeps them answers.
public protocol DeviceDirectory: Sendable {
    /// The device a name and password sign in as, or nil (in the same time either way).
    func signIn(_ name: String, _ password: String) -> DeviceAccess?
    /// A wrong password given for `name` from `address`.
    func failedSignIn(_ name: String, from address: String, now: Int64)
    /// A device signed in from `address`.
    func seen(_ name: String, from address: String, now: Int64)
}

/// The CardDAV face for devices: each request refused while its address has given too many
/// wrong passwords, then signed in as a device (HTTP Basic), then answered from that device's
/// view of the books. What the network listener calls for every request.
public struct DeviceGate: Sendable {
    let books: ServedBooks
    let devices: DeviceDirectory
    let limiter: SignInLimiter
    let maxResourceSize: Int
    /// Told what a log should say (a wrong password and where from, an address held back).
    let note: @Sendable (String) -> Void
    let clock: @Sendable () -> Int64

    public init(
        books: ServedBooks, devices: DeviceDirectory, limiter: SignInLimiter, maxResourceSize: Int,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }, note: @escaping @Sendable (String) -> Void
    ) {
        (self.books, self.devices, self.limiter, self.maxResourceSize) = (books, devices, limiter, maxResourceSize)
        (self.clock, self.note) = (clock, note)
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let address = request.peerAddress ?? "an unknown address"
        let now = clock()
        if let wait = limiter.retryAfter(address, now: now) {
            return HTTPResponse(
                status: 429, headers: [("Retry-After", String(wait)), ("Content-Type", "text/plain; charset=utf-8")],
                body: Array("too many wrong passwords from \(address): try again in \(wait) seconds\n".utf8))
        }
        guard let (name, password) = BasicCredentials.parse(request.header("Authorization")) else { return Self.challenge }
        guard let device = devices.signIn(name, password) else {
            limiter.failed(address, now: now)
            devices.failedSignIn(name, from: address, now: now)
            note("a wrong password for the device '\(Self.printable(name))' from \(address)")
            if limiter.retryAfter(address, now: now) != nil {
                note("\(address) is held back for \(limiter.window / 60) minutes after \(limiter.limit) wrong passwords")
            }
            return Self.challenge
        }
        devices.seen(device.name, from: address, now: now)
        let view = ScopedBooks.view(of: books, visible: device.books, readOnly: device.readOnly, client: device.name)
        return DAVService(books: view, maxResourceSize: maxResourceSize).handle(request)
    }

    static let challenge = HTTPResponse(
        status: 401,
        headers: [("WWW-Authenticate", #"Basic realm="contactsd", charset="UTF-8""#), ("Content-Type", "text/plain; charset=utf-8")],
        body: Array("sign in with the device's name and password (contactsctl serve device add)\n".utf8))

    /// A name a client sent, fit for a log line: printable ASCII, at most 64 characters.
    static func printable(_ name: String) -> String {
        String(name.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? Character($0) : "?" })
    }
}
