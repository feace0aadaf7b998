import ContactsCore
import ContactsStore
import Dispatch
import Foundation
import Glibc
import JSONCore
import JSONRPC

/// The version of contactsd and contactsctl.
public let contactsdVersion = "0.1.0"

/// The running service: store, RPC server, event bus, signals and systemd state.
public final class Daemon: @unchecked Sendable {
    let options: DaemonOptions
    let log: Logger
    let paths: XDGPaths
    let startedAt = Date()
    let dataDirectory: String
    private(set) var socketPath: String
    let databasePath: String
    let bus = EventBus()
    private(set) var store: ContactStore?
    private var server: RPCServer?
    private var lock: LockFile?
    private var ownsSocketFile = false
    private let stopSignal = DispatchSemaphore(value: 0)

    public struct StartupError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(options: DaemonOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.options = options
        self.log = Logger(level: options.logLevel, environment: environment)
        self.paths = XDGPaths(environment: environment)
        self.dataDirectory = options.dataDirectory ?? paths.dataDirectory
        self.socketPath = options.socketPath ?? paths.defaultSocket
        self.databasePath = dataDirectory + "/contacts.sqlite3"
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        SignalWatcher.install([SIGTERM, SIGINT]) { [weak self] sig in
            self?.log.info("received \(sig == SIGTERM ? "SIGTERM" : "SIGINT"); stopping")
            self?.stopSignal.signal()
        }
        do {
            try start()
        } catch {
            log.error("\(error)")
            Systemd.notify("STATUS=Failed to start: \(error)")
            return 1
        }
        stopSignal.wait()
        stop()
        return 0
    }

    func start() throws {
        try makeDirectory(dataDirectory)
        do {
            lock = try LockFile(path: dataDirectory + "/contactsd.lock")
        } catch {
            throw StartupError(description: error.description)
        }
        let store: ContactStore
        do {
            store = try ContactStore(path: databasePath)
        } catch {
            throw StartupError(description: "cannot open the store: \(error)")
        }
        self.store = store
        store.setChangeHandler { [bus] contacts, groups in bus.publish(contacts: contacts, groups: groups) }

        let engine = RPCEngine(
            info: RPCServiceInfo(
                title: "contactsd", version: contactsdVersion,
                description: "The personal contacts service: one contact store served over JSON-RPC 2.0 on a Unix socket.",
                schemas: Schemas.components),
            methods: ContactMethods.all(store: store) + GroupMethods.all(store: store) + daemonMethods(store: store),
            mapError: ErrorMapping.rpcError)

        let listenFD = try openListener()
        var config = RPCServerConfiguration()
        config.maxLineBytes = options.maxLineBytes
        config.maxConnections = options.maxConnections
        let server = RPCServer(engine: engine, listenFD: listenFD, configuration: config, log: log.rpcLogger)
        try server.start()
        self.server = server
        startWatchdog()
        let counts = (try? store.counts()) ?? (contacts: 0, groups: 0)
        log.info("serving \(counts.contacts) contacts from \(databasePath) on \(socketPath)")
        Systemd.notify("READY=1\nSTATUS=\(statusLine())\nMAINPID=\(getpid())")
        // Load the search index now, off the critical path, so the first search is fast.
        let warm = Thread { [log] in
            do {
                try store.warmUp()
            } catch {
                log.warning("could not load the search index: \(error)")
            }
        }
        warm.name = "warm-up"
        warm.start()
    }

    private func openListener() throws -> Int32 {
        let passed = Systemd.listenFDs()
        if let fd = passed.first {
            guard passed.count == 1, Systemd.isUnixStreamListener(fd) else {
                throw StartupError(description: "socket activation passed \(passed.count) descriptors; expected one listening Unix stream socket")
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if let path = UnixSocket.boundPath(fd) { socketPath = path }
            log.info("using the socket passed by the service manager (\(socketPath))")
            return fd
        }
        if let dir = socketPath.range(of: "/", options: .backwards).map({ String(socketPath[..<$0.lowerBound]) }), !dir.isEmpty {
            try makeDirectory(dir)
        }
        do {
            let fd = try UnixSocket.listen(path: socketPath)
            ownsSocketFile = true
            return fd
        } catch {
            throw StartupError(description: "cannot listen on \(socketPath): \(error)")
        }
    }

    func statusLine() -> String {
        let counts = (try? store?.counts()) ?? nil
        return "Serving \(counts?.contacts ?? 0) contacts in \(counts?.groups ?? 0) groups"
    }

    /// Asks the daemon to stop as a signal would (for tests and embedding).
    public func requestStop() { stopSignal.signal() }

    private func stop() {
        Systemd.notify("STOPPING=1\nSTATUS=Stopping")
        server?.shutdown(grace: 10)
        store?.close()
        if ownsSocketFile { unlink(socketPath) }
        log.info("stopped")
    }

    private func startWatchdog() {
        guard let usec = Systemd.watchdogInterval() else { return }
        let interval = Double(usec) / 2_000_000
        let t = Thread {
            while true {
                Systemd.notify("WATCHDOG=1")
                Thread.sleep(forTimeInterval: interval)
            }
        }
        t.name = "watchdog"
        t.start()
    }

    private func makeDirectory(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw StartupError(description: "\(path) exists and is not a directory") }
            return
        }
        if let parent = path.range(of: "/", options: .backwards).map({ String(path[..<$0.lowerBound]) }), !parent.isEmpty {
            try makeDirectory(parent)
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StartupError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    // MARK: Methods of the daemon itself

    private func daemonMethods(store: ContactStore) -> [RPCMethod] {
        [
            RPCMethod(
                "daemon.status", summary: "Reports the daemon's version, counts, paths and uptime.",
                result: "status",
                resultSchema: [
                    "type": "object",
                    "required": ["version", "contacts", "groups", "dataDir", "socket", "uptimeSeconds"],
                    "properties": [
                        "version": Schemas.string, "contacts": Schemas.integer, "groups": Schemas.integer,
                        "dataDir": Schemas.string, "database": Schemas.string, "socket": Schemas.string,
                        "inbox": Schemas.nullableString, "uptimeSeconds": ["type": "number"], "pid": Schemas.integer,
                        "connections": Schemas.integer, "subscribers": Schemas.integer,
                    ],
                ]
            ) { [self] _ in
                let counts = try store.counts()
                return [
                    "version": .string(contactsdVersion), "contacts": .int(counts.contacts), "groups": .int(counts.groups),
                    "dataDir": .string(dataDirectory), "database": .string(databasePath), "socket": .string(socketPath),
                    "inbox": .null, "uptimeSeconds": .double((Date().timeIntervalSince(startedAt) * 1000).rounded() / 1000),
                    "pid": .int(Int(getpid())), "connections": .int(server?.connectionCount ?? 0),
                    "subscribers": .int(bus.subscriberCount),
                ]
            },
            RPCMethod(
                "events.subscribe",
                summary: "Subscribes this connection to change notifications: contacts.changed and groups.changed, sent after each commit.",
                result: "subscribed",
                resultSchema: ["type": "object", "required": ["subscribed"], "properties": ["subscribed": Schemas.boolean]]
            ) { [bus] call in
                guard let session = call.session else { throw RPCError.invalidRequest("events need a connection") }
                bus.subscribe(session)
                return ["subscribed": true]
            },
        ]
    }
}
