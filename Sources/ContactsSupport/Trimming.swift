extension String {
    /// The string without leading and trailing white space (Unicode-aware, no Foundation).
    public func trimmingWhitespace() -> String {
        // Fast path: nothing to trim at either end (ASCII ends are checked without tables).
        if let f = utf8.first, let l = utf8.last, f > 0x20, f < 0x80, l > 0x20, l < 0x80 { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        // A non-whitespace scalar exists, so lastIndex finds one too.
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) ?? first
        return String(scalars[first...last])
    }
}

extension Substring {
    /// The text without leading and trailing white space, as a string.
    public func trimmingWhitespace() -> String { String(self).trimmingWhitespace() }
}
