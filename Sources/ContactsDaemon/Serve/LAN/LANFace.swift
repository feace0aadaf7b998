import CardDAVServer
import ContactsStore
import ContactsSupport
import Foundation
import HTTPServer

/// The store served over CardDAV on the local network, to named devices: TLS only (TLS 1.2
/// and 1.3, forward-secret), each request signed in with a device's password and answered
/// from the books that device was given. Off until `carddav.lan` asks for it; libmicrohttpd
/// and GnuTLS are loaded when the first device connects.
final class LANFace: @unchecked Sendable {
    private let store: ContactStore
    private let sync: SyncService?
    private let log: Logger
    let identity: LANIdentity
    let registry: DeviceRegistry
    let limiter = SignInLimiter()
    private let announcement: ServiceAnnouncement

    private struct State {
        var settings: LANSettings?
        var listener: OnDemandListener?
        var certificate: ServerCertificate.Info?
    }
    private let state = Locked(State())

    init(store: ContactStore, sync: SyncService?, directory: String, log: Logger) throws(DeviceRegistry.Failure) {
        self.store = store
        self.sync = sync
        self.log = log
        identity = LANIdentity(directory: directory)
        announcement = ServiceAnnouncement(log: log)
        registry = try DeviceRegistry(path: directory + "/devices.json")
    }

    /// Listens as `wanted` says, or stops when it is nil. A listener that cannot start is
    /// logged and leaves the rest of the daemon running.
    func apply(_ wanted: LANSettings?) {
        state.withLock { s in
            guard wanted != s.settings || (wanted != nil && s.listener == nil) else { return }
            s.listener?.stop()
            s.listener = nil
            s.settings = wanted
            guard let wanted else { return announcement.withdraw() }
            start(wanted, &s)
        }
    }

    /// Starts listening with the certificate on disk (made first when there is none). The
    /// caller holds the state's lock.
    private func start(_ settings: LANSettings, _ s: inout State) {
        let certificate: ServerCertificate
        let info: ServerCertificate.Info
        do {
            certificate = try identity.loadOrMake(names: Self.names(settings), addresses: Self.addresses(settings))
            info = try identity.info(of: certificate)
        } catch {
            log.error("cannot serve CardDAV on the network at \(settings.listen): \(error)")
            return
        }
        s.certificate = info
        var limits = HTTPListener.Limits()
        limits.bodyBytes = CardDAVFace.maxCardBytes
        limits.threads = 4
        limits.connections = 128
        limits.connectionsPerAddress = 32
        let tls = HTTPListener.TLS(certificate: certificate.certificatePEM, key: certificate.keyPEM)
        do {
            let socket = try OnDemandListener(host: settings.listen.host, port: settings.listen.port)
            socket.start(
                { [limits, self] fd in try HTTPListener(socket: fd, limits: limits, tls: tls, handler: { self.handle($0) }) },
                failed: { [log] error in log.error("cannot serve CardDAV on the network at \(settings.listen): \(error)") })
            s.listener = socket
            log.info("serving CardDAV to devices at \(Self.url(settings)) (TLS; certificate \(info.fingerprintText))")
            announcement.announce(name: "contactsd on \(NetworkInterfaces.hostName())", port: socket.port)
        } catch {
            log.error("cannot serve CardDAV on the network at \(settings.listen): \(error)")
        }
    }

    /// A new certificate (`renew`) or the user's own (`use`), served from the next connection
    /// on; returns what it says.
    func replaceCertificate(with own: ServerCertificate?) throws(ServerCertificate.Failure) -> ServerCertificate.Info {
        let settings = state.withLock { $0.settings }
        let info: ServerCertificate.Info
        if let own {
            info = try identity.use(own)
        } else {
            let fallback = settings ?? LANSettings(listen: ListenAddress(host: "0.0.0.0", port: LANSettings.defaultPort))
            info = try identity.info(of: identity.make(names: Self.names(fallback), addresses: Self.addresses(fallback)))
        }
        state.withLock { s in
            s.certificate = info
            guard let settings = s.settings else { return }
            s.listener?.stop()
            s.listener = nil
            start(settings, &s)
        }
        return info
    }

    /// The certificate on disk, if there is one.
    func certificate() throws(ServerCertificate.Failure) -> ServerCertificate.Info? {
        if let known = state.withLock({ $0.certificate }) { return known }
        guard let kept = try identity.load() else { return nil }
        return try identity.info(of: kept)
    }

    /// What `serve.status` says of the LAN face; nil while it is off.
    var settings: LANSettings? { state.withLock { $0.listener == nil ? nil : $0.settings } }

    func stop() {
        state.withLock { s in
            s.listener?.stop()
            s.listener = nil
        }
        announcement.withdraw()
        registry.flush()
    }

    // MARK: Requests

    /// Each request, through the gate: held back, signed in, answered from the device's view.
    func handle(_ request: HTTPRequest) -> HTTPResponse { gate.handle(request) }

    private var gate: DeviceGate {
        DeviceGate(
            books: StoreBooks(store: store, sync: sync), devices: registry, limiter: limiter, maxResourceSize: CardDAVFace.maxCardBytes
        ) { [log] line in log.warning("CardDAV (network): \(line)") }
    }

    // MARK: Names and addresses

    /// The host devices are given: the configured name, else the listening address, else (on
    /// every address) the machine's first one.
    static func host(_ settings: LANSettings) -> String {
        if let host = settings.host { return host }
        if !settings.listen.isWildcard { return settings.listen.host }
        return NetworkInterfaces.addresses().first ?? NetworkInterfaces.hostName() + ".local"
    }

    static func url(_ settings: LANSettings) -> String {
        let host = host(settings)
        return "https://\(host.contains(":") ? "[\(host)]" : host):\(settings.listen.port)/"
    }

    /// The host names a new certificate holds: the configured one, the machine's and its
    /// `.local` name.
    static func names(_ settings: LANSettings) -> [String] {
        let machine = NetworkInterfaces.hostName()
        var names = [machine, machine + ".local"]
        if let host = settings.host, !names.contains(host), ListenAddress.parse("\(host):1").isFailure { names.insert(host, at: 0) }
        return names
    }

    /// The addresses a new certificate holds: the listening one, or every address of the machine.
    static func addresses(_ settings: LANSettings) -> [String] {
        var list = settings.listen.isWildcard ? NetworkInterfaces.addresses() : [settings.listen.host]
        if let host = settings.host, !ListenAddress.parse("\(host):1").isFailure, !list.contains(host) { list.append(host) }
        return list
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
