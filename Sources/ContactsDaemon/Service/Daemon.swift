import BaseDirectories
import ContactsAPI
import ContactsCore
import ContactsStore
import ContactsSupport
import ContactsSync
import Dispatch
import Foundation
import Glibc
import JSONCore
import JSONRPC
import PhoneNumbers
import Synchronization

/// The running service: store, RPC server, event bus, signals and systemd state.
public final class Daemon: @unchecked Sendable {
    /// How long the store must go unread before it rests (`ContactStore.rest`).
    static let restAfterMillis: Int64 = 1_000
    let options: DaemonOptions
    let log: Logger
    let paths: XDGPaths
    let startedAt = Date()
    /// The settings in force and the birthday calendar kept: a reload changes both.
    private let state: Locked<(settings: Settings, dateCalendar: DateCalendarDirectory?)>
    private(set) var socketPath: String
    let dataDirectory: String
    let databasePath: String
    let inboxPath: String
    private(set) var inbox: InboxWatcher?
    let bus = EventBus()
    /// The live views clients keep open.
    private(set) var views: LiveViews?
    private(set) var store: ContactStore?
    private var photos: PhotoService?
    private var sync: SyncService?
    private var vdirs: VdirWatcher?
    private var mail: MailService?
    private var mailWatcher: MailWatcher?
    private(set) var cardDAV: CardDAVFace?
    /// The CardDAV face on the local network (devices, TLS); nil when its files cannot be read.
    private(set) var lan: LANFace?
    /// Why there is no LAN face.
    private(set) var lanFailure: String?
    /// The CardDAV socket the service manager passed, if it did.
    private var passedCardDAVSocket: Int32?
    /// How the last sync of each account went, for the status line.
    private let lastSync = Locked<[String: String]>([:])
    private(set) var server: RPCServer?
    private var lock: LockFile?
    private var ownsSocketFile = false
    private let stopSignal = DispatchSemaphore(value: 0)
    private let statusQueue = TaskQueue(label: "status")
    private var statusPending = false
    /// What the last drop-folder import did, carried by every later status line.
    private let lastImport = Locked<String?>(nil)
    /// Set when the daemon begins to stop: imports under way roll back (a dropped file stays
    /// in the inbox and is imported whole at the next start).
    private let stopping = Atomic<Bool>(false)

    public struct StartupError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(options: DaemonOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.options = options
        self.paths = XDGPaths(environment: environment)
        let settings = try Settings.resolve(options, paths: paths)
        self.state = Locked((settings, nil))
        self.log = Logger(level: settings.logLevel, environment: environment)
        self.dataDirectory = settings.dataDirectory
        self.socketPath = settings.socketPath
        self.databasePath = settings.dataDirectory + "/contacts.sqlite3"
        self.inboxPath = settings.inboxPath
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // Everything the daemon creates (store, WAL, photos, reports) is the user's alone,
        // however it was started.
        umask(0o077)
        SignalWatcher.install([SIGTERM, SIGINT, SIGHUP]) { [weak self] sig in
            guard let self else { return }
            if sig == SIGHUP {
                reload()
            } else {
                log.info("received \(sig == SIGTERM ? "SIGTERM" : "SIGINT"); stopping")
                stopSignal.signal()
            }
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
        let settings = currentSettings
        try FileIO.makeDirectories(dataDirectory)
        do {
            lock = try LockFile(path: dataDirectory + "/contactsd.lock")
        } catch {
            throw StartupError(description: error.description)
        }
        let store: ContactStore
        // Numbers are keyed in this region when the store opens (again if it changed).
        PhoneRegion.current = settings.defaultRegion
        do {
            store = try ContactStore(path: databasePath) { [log] from, to in
                // Tell the service manager that start-up may take longer than usual.
                log.notice("updating the store from schema \(from) to \(to)")
                Systemd.notify("EXTEND_TIMEOUT_USEC=120000000\nSTATUS=Updating the store to schema \(to)")
            }
        } catch {
            throw StartupError(description: "cannot open the store: \(error)")
        }
        self.store = store
        store.keepsHistory = settings.historyDays > 0
        // A second after the last read, what only helps a burst of work goes back, and with
        // it the heap's free pages and the program's pages it does not run at rest: a daemon
        // at rest holds its index and little else.
        store.restWhenQuiet(after: Self.restAfterMillis) {
            PhoneDescriptions.forget()
            Memory.release()
            ProgramPages.release()
        }
        store.setChangeHandler { [weak self] contacts, groups, source in
            if contacts.isEmpty && groups.isEmpty {
                // The whole store was replaced (restore): clients should read everything again.
                self?.bus.publish(method: ContactsAPI.Notification.contactsReset, params: [:])
                self?.currentDateCalendar?.changed(nil)
            } else {
                if !contacts.isEmpty { self?.currentDateCalendar?.changed(contacts.map(\.id)) }
                self?.bus.publish(contacts: contacts, groups: groups, source: source)
            }
            self?.scheduleStatusUpdate()
            if !contacts.isEmpty || !groups.isEmpty { self?.sync?.localChange(origin: source.origin) }
        }

        keepDateCalendar(in: settings.birthdayCalendar)

        let importer = Importer(store: store, log: log) { [weak self] in self?.stopping.load(ordering: .relaxed) ?? true }
        let photos = PhotoService(store: store, cacheDirectory: paths.cacheHome + "/contactsd", settings: settings)
        self.photos = photos
        let sync = SyncService(store: store, smallerPhoto: photos.smallerJPEG)
        sync.defaultAccount = settings.defaultAccount
        sync.labelsDirectory = dataDirectory + "/accounts"
        if let d = settings.defaultAccount, (try? store.account(named: d)) == nil {
            log.warning("defaultAccount '\(d)' is not an account: new contacts stay on this machine until it is added")
        }
        sync.isStopping = { [weak self] in self?.stopping.load(ordering: .relaxed) ?? true }
        sync.onFinished = { [weak self] name, result in self?.syncFinished(name, result) }
        sync.onProgress = { [weak self] name, p in
            self?.bus.publish(method: ContactsAPI.Notification.syncProgress, params: SyncMethods.json(p, account: name))
        }
        self.sync = sync
        let vdirs = VdirWatcher(store: store, sync: sync, log: log)
        sync.onAccountsChanged = { [weak vdirs] in vdirs?.refresh() }
        self.vdirs = vdirs
        let views = LiveViews(store: store)
        self.views = views
        let mail = MailService(store: store, me: settings.mailMe)
        self.mail = mail
        let engine = Self.engine(
            Services(store: store, importer: importer, photos: photos, sync: sync, mail: mail, views: views, daemon: self))

        let listenFD = try openListener()
        let server = RPCServer(
            engine: engine, listenFD: listenFD, configuration: serverConfiguration(settings), log: log.rpcLogger,
            afterLargeMessage: { Memory.releaseSoon() })
        let watcher = InboxWatcher(inbox: inboxPath, importer: importer, bus: bus, log: log)
        watcher.onProcessed = { [weak self] line in
            guard let self else { return }
            lastImport.withLock { $0 = line }
            statusQueue.async { [weak self] in
                guard let self else { return }
                Systemd.status(statusLine())
            }
        }
        // Both are set before the first request can arrive: handlers read them from other threads.
        self.server = server
        inbox = watcher
        // Syncs are scheduled and vdirs watched before the first request can add an account.
        sync.start()
        do {
            try vdirs.start()
        } catch {
            log.warning("vdir accounts are not watched (they sync every interval): \(error)")
        }
        let mailWatcher = MailWatcher(mail: mail, log: log)
        mailWatcher.watch(settings.mailWatch)
        self.mailWatcher = mailWatcher
        // The faces and the drop folder are there before the first request too: a client may ask
        // where the store is served, or drop a file, as soon as the socket answers.
        try FileIO.makeDirectories(inboxPath)
        let face = CardDAVFace(store: store, sync: sync, log: log)
        cardDAV = face
        do {
            lan = try LANFace(store: store, sync: sync, directory: dataDirectory + "/lan", log: log)
        } catch {
            lanFailure = error.description
            log.error("devices cannot be served: \(error)")
        }
        try server.start()
        if let fd = passedCardDAVSocket {
            face.serve(passedSocket: fd)
        } else {
            face.apply(settings.cardDAVListen)
        }
        lan?.apply(settings.cardDAVLAN)
        try watcher.start()
        startWatchdog()
        let counts = (try? store.counts()) ?? (contacts: 0, groups: 0)
        log.info("serving \(counts.contacts) contacts from \(databasePath) on \(socketPath); inbox \(inboxPath)")
        log.debug("heap: \(Memory.allocator)")
        Systemd.notify("READY=1\nSTATUS=\(statusLine())\nMAINPID=\(getpid())")
        // Load the search index now, off the critical path, so the first search is fast.
        let warm = Thread { [log] in
            do {
                try store.warmUp()
            } catch {
                log.warning("could not load the search index: \(error)")
            }
            // Photo files an interrupted write or import left with no contact referring to them.
            do {
                let removed = try store.removeUnreferencedPhotos()
                if removed > 0 { log.info("removed \(removed) photo files no contact refers to") }
            } catch {
                log.warning("could not check the photo files: \(error)")
            }
        }
        warm.name = "warm-up"
        warm.start()
        pruneHistorySoon(after: 5)
    }

    /// A sync ended: subscribers hear of it, the log and the status line say how it went.
    private func syncFinished(_ name: String, _ result: Result<SyncReport, Error>) {
        let time = String(Timestamp.format(Timestamp.now()).dropFirst(11).prefix(5))
        switch result {
        case .success(let report):
            bus.publish(method: ContactsAPI.Notification.syncFinished, params: ["report": SyncMethods.json(report)])
            if report.held > 0 {
                bus.publish(method: ContactsAPI.Notification.syncHeld, params: ["account": .string(name), "count": .int(report.held)])
            }
            let d = report.downloaded, u = report.uploaded
            log.info(
                "sync \(name): in \(d.created)+\(d.updated)~\(d.deleted)-, out \(u.created)+\(u.updated)~\(u.deleted)-, \(report.merged) merged, \(report.requests) requests, \(report.durationMs) ms"
            )
            lastSync.withLock { $0[name] = "synced \(name) at \(time) UTC" }
        case .failure(let error):
            log.warning("sync \(name) failed: \(error)")
            lastSync.withLock { $0[name] = "sync of \(name) failed at \(time) UTC" }
        }
        scheduleStatusUpdate()
    }

    /// What the methods are answered from: the store and the services over it; the live views
    /// and the daemon itself where there is one (not in a test of the methods alone).
    struct Services: Sendable {
        let store: ContactStore
        let importer: Importer
        let photos: PhotoService
        let sync: SyncService
        var mail: MailService
        var views: LiveViews?
        var daemon: Daemon?
    }

    /// The methods, a set per concern, each made from the services: registering a new set is
    /// one line here.
    static let methodSets: [@Sendable (Services) -> [RPCMethod]] = [
        { ContactMethods.all(store: $0.store, sync: $0.sync) }, { PhotoMethods.all(photos: $0.photos) },
        { ImportExportMethods.all(store: $0.store, importer: $0.importer) }, { GroupMethods.all(store: $0.store) },
        { TrashMethods.all(store: $0.store) }, { HistoryMethods.all(store: $0.store) }, { ChangeMethods.all(store: $0.store) },
        { DuplicateMethods.all(store: $0.store) }, { DateMethods.all(store: $0.store) },
        { SyncMethods.all(store: $0.store, sync: $0.sync) }, { $0.views.map(ViewMethods.all) ?? [] },
        { MailMethods.all(store: $0.store, mail: $0.mail) },
        { s in s.daemon.map { $0.daemonMethods(store: s.store) + $0.serveMethods(store: s.store) } ?? [] },
    ]

    /// The JSON-RPC engine with every method of `methodSets` over `services`.
    static func engine(_ services: Services) -> RPCEngine {
        RPCEngine(
            info: RPCServiceInfo(
                title: "contactsd", version: ContactsAPI.version,
                description: "The personal contacts service: one contact store served over JSON-RPC 2.0 on a Unix socket.",
                schemas: Schemas.components),
            methods: methodSets.flatMap { $0(services) }.map(recordingCaller), mapError: ErrorMapping.rpcError)
    }

    /// The engine of the store's methods alone (no views, no daemon): for tests of the methods.
    static func engine(store: ContactStore, importer: Importer, photos: PhotoService, sync: SyncService? = nil) -> RPCEngine {
        engine(
            Services(
                store: store, importer: importer, photos: photos, sync: sync ?? SyncService(store: store), mail: MailService(store: store)))
    }

    /// The method with what it writes recorded as made by its caller's process (`rpc:PID`).
    static func recordingCaller(_ method: RPCMethod) -> RPCMethod {
        var m = method
        let handler = method.handler
        m.handler = { call in
            guard let pid = call.session?.peerProcess else { return try handler(call) }
            return try CommitOrigin.$current.withValue(CommitOrigin.client(pid)) { try handler(call) }
        }
        return m
    }

    private func serverConfiguration(_ s: Settings) -> RPCServerConfiguration {
        var config = RPCServerConfiguration()
        config.maxLineBytes = s.maxLineBytes
        config.maxConnections = s.maxConnections
        return config
    }

    private func openListener() throws -> Int32 {
        let all = Systemd.listenFDs()
        // A TCP socket beside it is the CardDAV face's (contactsd-carddav.socket).
        let tcp = all.filter(Systemd.isTCPListener)
        let passed = all.filter { !tcp.contains($0) }
        guard tcp.count <= 1 else {
            throw StartupError(description: "socket activation passed \(tcp.count) TCP sockets; expected one at most, for CardDAV")
        }
        if let fd = tcp.first {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            passedCardDAVSocket = fd
        }
        if let fd = passed.first {
            guard passed.count == 1, Systemd.isUnixStreamListener(fd) else {
                throw StartupError(
                    description:
                        "socket activation passed \(passed.count) descriptors besides CardDAV's; expected one listening Unix stream socket")
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if let path = UnixSocket.boundPath(fd) { socketPath = path }
            log.info("using the socket passed by the service manager (\(socketPath))")
            return fd
        }
        if let dir = socketPath.range(of: "/", options: .backwards).map({ String(socketPath[..<$0.lowerBound]) }), !dir.isEmpty {
            try FileIO.makeDirectories(dir)
        }
        do {
            let fd = try UnixSocket.listen(path: socketPath)
            ownsSocketFile = true
            return fd
        } catch {
            throw StartupError(description: "cannot listen on \(socketPath): \(error)")
        }
    }

    /// The one STATUS= text: the counts, and the last import once there was one.
    func statusLine() -> String {
        let counts = (try? store?.counts()) ?? nil
        let serving = "Serving \(counts?.contacts ?? 0) contacts in \(counts?.groups ?? 0) groups"
        var parts = [serving]
        if let i = lastImport.withLock({ $0 }) { parts.append(i) }
        parts += lastSync.withLock { $0 }.sorted { $0.key < $1.key }.map(\.value)
        return parts.joined(separator: "; ")
    }

    /// Sends a fresh STATUS= line at most once a second, after changes.
    private func scheduleStatusUpdate() {
        statusQueue.async { [weak self] in
            guard let self, !statusPending else { return }
            statusPending = true
            statusQueue.after(seconds: 1) { [weak self] in
                guard let self else { return }
                statusPending = false
                Systemd.status(statusLine())
            }
        }
    }

    /// The birthday calendar kept now (a reload may start, move or end it).
    private var currentDateCalendar: DateCalendarDirectory? { state.withLock { $0.dateCalendar } }

    /// Keeps the birthday calendar in `directory` from now on (nil: none); the files of a
    /// directory given up stay as they are.
    private func keepDateCalendar(in directory: String?) {
        guard let store else { return }
        let calendar = directory.map { DateCalendarDirectory(directory: $0, store: store, log: log) }
        state.withLock { $0.dateCalendar = calendar }
        calendar?.start()
    }

    /// The settings in force now (a reload may have changed them).
    var currentSettings: Settings { state.withLock { $0.settings } }

    /// Prunes the history in the background, `after` seconds from now and then every hour,
    /// as the settings in force say.
    private func pruneHistorySoon(after seconds: Double) {
        TaskQueue.timers.after(seconds: seconds) { [weak self] in
            guard let self, let store, !stopping.load(ordering: .relaxed) else { return }
            let retention = state.withLock { HistoryRetention(days: $0.settings.historyDays, maxBytes: $0.settings.historyMaxBytes) }
            do {
                let gone = try store.pruneHistory(retention)
                if gone > 0 { log.info("history: \(gone) changes older than \(retention.days) days or over the size limit went") }
            } catch {
                log.warning("could not prune the history: \(error)")
            }
            pruneHistorySoon(after: 3600)
        }
    }

    /// Re-reads the configuration (SIGHUP). Every key takes effect at once but the socket, the
    /// data directory and the inbox, which wait for the next start (the log names them). A
    /// broken file changes nothing.
    func reload() {
        Systemd.notify("RELOADING=1\nSTATUS=Reloading the configuration")
        do {
            let fresh = try Settings.resolve(options, paths: paths)
            let old = state.withLock { s in
                defer { s.settings = fresh }
                return s.settings
            }
            log.level = fresh.logLevel
            server?.config = serverConfiguration(fresh)
            photos?.apply(fresh)
            store?.keepsHistory = fresh.historyDays > 0
            sync?.defaultAccount = fresh.defaultAccount
            mail?.setMe(fresh.mailMe)
            if fresh.mailWatch != old.mailWatch { mailWatcher?.watch(fresh.mailWatch) }
            cardDAV?.apply(fresh.cardDAVListen)
            lan?.apply(fresh.cardDAVLAN)
            if fresh.defaultRegion != old.defaultRegion {
                PhoneRegion.current = fresh.defaultRegion
                let keyed = try store?.phoneRegionChanged() ?? 0
                log.info("phone numbers are read in \(fresh.defaultRegion ?? "no region") now (\(keyed) contacts keyed again)")
            }
            if fresh.birthdayCalendar != old.birthdayCalendar {
                keepDateCalendar(in: fresh.birthdayCalendar)
                log.info(
                    fresh.birthdayCalendar.map { "birthday calendar: kept in \($0) now" }
                        ?? "birthday calendar: no longer kept (its files stay in \(old.birthdayCalendar ?? ""))")
            }
            // What a running daemon cannot change: said by name.
            let waiting = [
                ("socket", fresh.socketPath != old.socketPath), ("dataDir", fresh.dataDirectory != old.dataDirectory),
                ("inbox", fresh.inboxPath != old.inboxPath),
            ].filter(\.1).map(\.0)
            if !waiting.isEmpty {
                log.warning(
                    "\(waiting.joined(separator: ", ")) changed: \(waiting.count == 1 ? "it takes" : "they take") effect when contactsd restarts"
                )
            }
            log.info("configuration reloaded")
            Systemd.notify("READY=1\nSTATUS=\(statusLine())")
        } catch {
            log.error("configuration not reloaded: \(error)")
            Systemd.notify("READY=1\nSTATUS=\(statusLine()) (configuration not reloaded: \(error))")
        }
    }

    private func stop() {
        Systemd.notify("STOPPING=1\nSTATUS=Stopping")
        stopping.store(true, ordering: .relaxed)
        sync?.stop()
        vdirs?.stop()
        mailWatcher?.stop()
        inbox?.stop()
        cardDAV?.stop()
        lan?.stop()
        server?.shutdown(grace: 10)
        store?.close()
        if ownsSocketFile { unlink(socketPath) }
        log.info("stopped")
    }

    private func startWatchdog() {
        guard let usec = Systemd.watchdogInterval() else { return }
        let interval = Double(usec) / 2_000_000
        log.debug("watchdog on: keep-alive every \(interval) s")
        let t = Thread {
            while true {
                Systemd.notify("WATCHDOG=1")
                Thread.sleep(forTimeInterval: interval)
            }
        }
        t.name = "watchdog"
        t.start()
    }
}
