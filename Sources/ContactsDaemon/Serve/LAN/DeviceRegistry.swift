import CardDAVServer
import ContactsSupport
import Foundation
import JSONCore

/// The devices the LAN face lets in, kept in a file of their own (`devices.json`, mode 0600,
/// beside the certificate): a hash of each password, never the password. What is seen of a
/// device (when, from where, wrong passwords) is kept in memory and written at most once a
/// minute, and when the daemon stops.
final class DeviceRegistry: DeviceDirectory {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidName(String)
        case exists(String)
        case notFound(String)
        case unreadable(String)
        case cannotWrite(String)

        var description: String {
            switch self {
            case .invalidName(let n):
                "'\(n)' is not a device name: 1 to 64 letters, digits, dots, dashes and underscores"
            case .exists(let n): "there is a device named \(n) already"
            case .notFound(let n): "there is no device named \(n)"
            case .unreadable(let why): why
            case .cannotWrite(let why): why
            }
        }
    }

    let path: String
    private struct State {
        var devices: [Device] = []
        var dirty = false
        var savedAt: Int64 = 0
    }
    private let state: Locked<State>
    /// A hash no password has, compared when the name is unknown (so that an unknown name costs
    /// what a wrong password does).
    private let decoy = DevicePassword.hash(DevicePassword.make())

    init(path: String) throws(Failure) {
        self.path = path
        var loaded: [Device] = []
        if let bytes = FileManager.default.contents(atPath: path) {
            guard let list = (try? JSONParser.parse(Array(bytes)))?["devices"]?.arrayValue else {
                throw .unreadable("\(path) is not a device list; move it away to start with none")
            }
            loaded = list.compactMap(Device.init(stored:))
        }
        state = Locked(State(devices: loaded))
    }

    var devices: [Device] { state.withLock { $0.devices } }

    func device(named name: String) -> Device? { state.withLock { s in s.devices.first { $0.name == name } } }

    /// A new device; returns its password, which is kept nowhere.
    func add(_ name: String, books: [String], readOnly: Bool, now: Int64) throws(Failure) -> String {
        guard Device.validName(name) else { throw .invalidName(name) }
        let password = DevicePassword.make()
        let device = Device(name: name, passwordHash: DevicePassword.hash(password), books: books, readOnly: readOnly, addedAt: now)
        try change { s throws(Failure) in
            guard !s.devices.contains(where: { $0.name == name }) else { throw .exists(name) }
            s.devices.append(device)
        }
        return password
    }

    func remove(_ name: String) throws(Failure) {
        try change { s throws(Failure) in
            guard let i = s.devices.firstIndex(where: { $0.name == name }) else { throw .notFound(name) }
            s.devices.remove(at: i)
        }
    }

    /// A new password for a device: the old one stops working at once.
    func renewPassword(_ name: String) throws(Failure) -> String {
        let password = DevicePassword.make()
        try change { s throws(Failure) in
            guard let i = s.devices.firstIndex(where: { $0.name == name }) else { throw .notFound(name) }
            s.devices[i].passwordHash = DevicePassword.hash(password)
        }
        return password
    }

    /// The device a name and password sign in as, or nil. It takes the same time whether the
    /// name is unknown or the password wrong: one hash, one comparison of full length.
    func signIn(_ name: String, _ password: String) -> DeviceAccess? {
        let offered = DevicePassword.hash(password)
        let device = self.device(named: name)
        guard DevicePassword.same(offered, device?.passwordHash ?? decoy), let device else { return nil }
        return DeviceAccess(name: device.name, books: device.books.isEmpty ? nil : Set(device.books), readOnly: device.readOnly)
    }

    /// A device signed in from `address`.
    func seen(_ name: String, from address: String, now: Int64) {
        note(now) { s in
            guard let i = s.devices.firstIndex(where: { $0.name == name }) else { return }
            s.devices[i].lastSeenAt = now
            s.devices[i].lastSeenFrom = address
        }
    }

    /// A wrong password given for the device `name` (if there is one).
    func failedSignIn(_ name: String, from address: String, now: Int64) {
        note(now) { s in
            guard let i = s.devices.firstIndex(where: { $0.name == name }) else { return }
            s.devices[i].failedSignIns += 1
        }
    }

    /// Writes what was seen and not yet written.
    func flush() {
        let pending = state.withLock { s -> [Device]? in
            guard s.dirty else { return nil }
            s.dirty = false
            return s.devices
        }
        if let pending { try? write(pending) }
    }

    /// Notes something seen: in memory, written when the last write is a minute old.
    private func note(_ now: Int64, _ body: (inout State) -> Void) {
        let pending = state.withLock { s -> [Device]? in
            body(&s)
            s.dirty = true
            guard now - s.savedAt >= 60 else { return nil }
            (s.dirty, s.savedAt) = (false, now)
            return s.devices
        }
        if let pending { try? write(pending) }
    }

    /// Changes the list and writes it before returning (a device added, removed or given a new
    /// password is on disk when the caller hears so); the list is unchanged when it cannot be.
    private func change(_ body: (inout State) throws(Failure) -> Void) throws(Failure) {
        var failure: Failure?
        state.withLock { s in
            var next = s
            do throws(Failure) {
                try body(&next)
                try write(next.devices)
            } catch {
                failure = error
                return
            }
            s = next
            s.dirty = false
        }
        if let failure { throw failure }
    }

    private func write(_ devices: [Device]) throws(Failure) {
        let text = JSONWriter.string(["devices": .array(devices.map(\.stored))]) + "\n"
        do {
            try FileIO.makeDirectories((path as NSString).deletingLastPathComponent)
            try FileIO.writeAtomically(path, Array(text.utf8))
        } catch {
            throw .cannotWrite("cannot write \(path): \(error)")
        }
    }
}
