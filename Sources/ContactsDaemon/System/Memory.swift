import Glibc

/// Gives freed heap memory back to the system after a large import or export, which would
/// otherwise stay in the process (glibc keeps it for reuse). `malloc_trim` is glibc's and is
/// not exported to Swift, so it is looked up at run time; elsewhere this does nothing.
enum Memory {
    private typealias Trim = @convention(c) (Int) -> Int32
    nonisolated(unsafe) private static let trim: Trim? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    static func release() { _ = trim?(0) }
}
