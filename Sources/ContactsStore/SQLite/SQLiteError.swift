import CSQLite

/// A failed SQLite call, with its extended result code and the statement it ran.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String?

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, ...).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql.prefix(200)))" }
        return "SQLite error \(code): \(message)"
    }

    public var isDiskFull: Bool { primaryCode == SQLITE_FULL }
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }

    /// A UNIQUE constraint on `column` (`table.column`, as SQLite names it) failed.
    func isUniqueViolation(on column: String) -> Bool {
        code == Self.constraintUnique && message.hasSuffix(column)
    }

    /// SQLITE_CONSTRAINT_UNIQUE (a macro Swift does not import).
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
}
