import CSQLite
import SQLiteMemory

/// A value bound to or read from a statement.
enum SQLValue {
    case null
    case int(Int64)
    case text(String)
    case blob([UInt8])
    case real(Double)
}

/// One SQLite connection. Not thread-safe: the store gives each thread its own, or guards it.
final class Database {
    let handle: OpaquePointer
    let path: String
    private var cache: [String: Statement] = [:]

    /// SQLite's heap is counted by `SQLiteMemory`'s allocator, set up before the first
    /// connection opens (SQLite takes its allocator only before it starts).
    static let countsMemory = contactsd_sqlite_count_memory() == SQLITE_OK

    /// Bytes SQLite holds in all its connections.
    static var memoryUsed: Int {
        let counted = contactsd_sqlite_memory_used()
        return Int(counted >= 0 ? counted : sqlite3_memory_used())
    }

    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        _ = Self.countsMemory
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: "cannot open \(path): \(message)", sql: nil)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    func check(_ rc: Int32, sql: String? = nil) throws(SQLiteError) {
        guard rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
    }

    /// The rowid of the row this connection inserted last.
    var lastInsertRowid: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Copies this whole database into `target` (SQLite's online backup), page by page in one
    /// step: what `target` held is replaced.
    func copy(into target: Database) throws(SQLiteError) {
        guard let b = sqlite3_backup_init(target.handle, "main", handle, "main") else {
            throw SQLiteError(
                code: sqlite3_extended_errcode(target.handle), message: String(cString: sqlite3_errmsg(target.handle)), sql: nil)
        }
        let rc = sqlite3_backup_step(b, -1)
        sqlite3_backup_finish(b)
        guard rc == SQLITE_DONE else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errstr(rc)), sql: "backup")
        }
    }

    /// Gives back to the allocator what SQLite's caches hold and need not (every connection).
    static func releaseMemory() { _ = sqlite3_release_memory(Int32.max) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(err)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement, cached by its text and reset for reuse.
    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let s = cache[sql] {
            s.reset()
            return s
        }
        let s = try Statement(database: self, sql: sql)
        cache[sql] = s
        return s
    }

    /// Reads one integer (`PRAGMA user_version`, `count(*)`).
    func scalarInt(_ sql: String, _ args: [SQLValue] = []) throws(SQLiteError) -> Int64 {
        let s = try prepare(sql)
        try s.bind(args)
        defer { s.reset() }
        guard try s.step() else { return 0 }
        return s.int64(0)
    }

    /// Reads one text value; nil when there is no row or the value is NULL.
    func scalarText(_ sql: String, _ args: [SQLValue] = []) throws(SQLiteError) -> String? {
        let s = try prepare(sql)
        try s.bind(args)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return s.optionalText(0)
    }

    /// Resets every cached statement, so that none keeps a read snapshot open between uses.
    func resetAll() {
        for s in cache.values { sqlite3_reset(s.handle) }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction; any throw rolls it back.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            resetAll()
            try execute("COMMIT")
            return result
        } catch {
            resetAll()
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement, finalized when released.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: Database

    init(database: Database, sql: String) throws(SQLiteError) {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(
                code: sqlite3_extended_errcode(database.handle), message: String(cString: sqlite3_errmsg(database.handle)), sql: sql)
        }
        self.handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .int(let n): rc = sqlite3_bind_int64(handle, index, n)
            case .text(var s):
                // The bytes with their length: no C string is made, and SQLite copies them once.
                rc = s.withUTF8 { u in
                    guard let base = u.baseAddress, u.count > 0 else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
                    return base.withMemoryRebound(to: CChar.self, capacity: u.count) {
                        sqlite3_bind_text64(handle, index, $0, UInt64(u.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let b):
                rc = b.withUnsafeBytes { sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), csqlite_transient()) }
            case .real(let x): rc = sqlite3_bind_double(handle, index, x)
            }
            try database.check(rc, sql: sql)
        }
    }

    /// Advances to the next row; false when there are no more.
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let error = SQLiteError(
            code: sqlite3_extended_errcode(database.handle), message: String(cString: sqlite3_errmsg(database.handle)), sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Binds, runs to completion and resets.
    func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(handle, column) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int64(column)
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }

    /// The column's bytes, valid until the next step or reset.
    func withBytes<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_column_blob(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: p, count: n))
    }
}
