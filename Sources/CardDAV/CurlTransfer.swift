import CCurl
import ContactsSupport
import Foundation

/// One request over one libcurl easy handle, on the caller's thread: the status, the headers
/// (names in lower case) and the body (in memory, or in a `BodyFile`) of its answer.
final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private let file: BodyFile?
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var body = Data()
    private(set) var writeFailure: String?
    /// When bytes last went either way, and how many had: silence longer than `silence` ends it.
    private var lastActivity = Date()
    private var lastCount: Int64 = -1
    private var silence: TimeInterval = 30
    private(set) var fellSilent = false

    init(handle: UnsafeMutableRawPointer, into file: BodyFile?) {
        self.handle = handle
        self.file = file
    }

    /// Carries the request out; what went wrong on the way, nil when an answer came.
    func perform(method: String, url: String, headers: [String: String], body: Data?, timeout: TimeInterval, caFile: String?) -> String? {
        let h = handle
        ccurl_easy_reset(h)
        var list: UnsafeMutablePointer<curl_slist>?
        // No "Expect: 100-continue" round trip before a large body.
        for line in headers.map({ "\($0.key): \($0.value)" }) + ["Expect:"] { list = ccurl_slist_append(list, line) }
        defer { ccurl_slist_free_all(list) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let seconds = max(1, Int(timeout.rounded(.up)))
        silence = max(1, timeout)
        lastActivity = Date()
        let code: CURLcode = url.withCString { u in
            method.withCString { m in
                (caFile ?? "").withCString { ca in
                    withBody(body) { bytes, count in
                        _ = ccurl_set_pointer(h, CURLOPT_URL, u)
                        _ = ccurl_set_pointer(h, CURLOPT_CUSTOMREQUEST, m)
                        _ = ccurl_set_pointer(h, CURLOPT_HTTPHEADER, list)
                        if let bytes {
                            _ = ccurl_set_size(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(count))
                            _ = ccurl_set_pointer(h, CURLOPT_POSTFIELDS, bytes)
                        } else if method == "HEAD" {
                            _ = ccurl_set_long(h, CURLOPT_NOBODY, 1)
                        }
                        _ = ccurl_set_long(h, CURLOPT_NOSIGNAL, 1)
                        _ = ccurl_set_long(h, CURLOPT_FOLLOWLOCATION, 0)
                        _ = ccurl_set_long(h, CURLOPT_CONNECTTIMEOUT, seconds)
                        // Silence (no byte either way) for `timeout` gives the request up.
                        _ = ccurl_set_long(h, CURLOPT_NOPROGRESS, 0)
                        _ = ccurl_set_progress(h, curlProgress)
                        _ = ccurl_set_pointer(h, CURLOPT_XFERINFODATA, context)
                        _ = ccurl_set_long(h, CURLOPT_TCP_KEEPALIVE, 1)
                        if caFile != nil { _ = ccurl_set_pointer(h, CURLOPT_CAINFO, ca) }
                        _ = ccurl_set_function(h, CURLOPT_WRITEFUNCTION, curlWrite)
                        _ = ccurl_set_pointer(h, CURLOPT_WRITEDATA, context)
                        _ = ccurl_set_function(h, CURLOPT_HEADERFUNCTION, curlHeader)
                        _ = ccurl_set_pointer(h, CURLOPT_HEADERDATA, context)
                        return ccurl_easy_perform(h)
                    }
                }
            }
        }
        var code64 = 0
        _ = ccurl_get_long(h, CURLINFO_RESPONSE_CODE, &code64)
        status = code64
        if fellSilent { return "no answer in time" }
        guard code == CURLE_OK else { return Self.describe(code) }
        return nil
    }

    private func withBody<T>(_ body: Data?, _ work: (UnsafeRawPointer?, Int) -> T) -> T {
        guard let body else { return work(nil, 0) }
        if body.isEmpty { return "".withCString { work(UnsafeRawPointer($0), 0) } }
        return body.withUnsafeBytes { work($0.baseAddress, $0.count) }
    }

    fileprivate func take(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if let file {
            if let failure = file.write(Data(chunk)) {
                writeFailure = failure
                return false
            }
        } else {
            body.append(contentsOf: chunk)
        }
        return true
    }

    /// Whether the request may go on: false once neither side has sent a byte for `silence`.
    fileprivate func stillAlive(_ bytes: Int64) -> Bool {
        let now = Date()
        if bytes != lastCount {
            lastCount = bytes
            lastActivity = now
            return true
        }
        if now.timeIntervalSince(lastActivity) > silence {
            fellSilent = true
            return false
        }
        return true
    }

    fileprivate func takeHeader(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            // A new answer (after a 100 Continue): its headers alone count.
            headers = [:]
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        headers[name] = headers[name].map { $0 + ", " + value } ?? value
    }

    private static func describe(_ code: CURLcode) -> String {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: "no answer in time"
        case CURLE_COULDNT_CONNECT: "connection refused"
        case CURLE_COULDNT_RESOLVE_HOST: "unknown host"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: "the connection was lost"
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR: "the TLS certificate is not trusted"
        default: ccurl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        }
    }
}

private let curlWrite: ccurl_data_fn = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.take(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private let curlProgress: ccurl_progress_fn = { context, downTotal, downNow, upTotal, upNow in
    guard let context else { return 1 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().stillAlive(Int64(downNow) + Int64(upNow)) ? 0 : 1
}

private let curlHeader: ccurl_data_fn = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.takeHeader(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
    return size * count
}

/// Easy handles kept between requests, so that a connection to the server is used again.
final class CurlHandles: @unchecked Sendable {
    private let idle = Locked<[UnsafeMutableRawPointer]>([])

    /// libcurl, loaded and set up once before the first handle: nil, or why it cannot be.
    private static let unavailable: String? = {
        var message = [CChar](repeating: 0, count: 256)
        guard ccurl_load(&message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// An easy handle, one kept or a new one; `unreachable` when libcurl cannot be used (the
    /// request for `shown` is not sent).
    func take(for shown: String) throws(DAVError) -> UnsafeMutableRawPointer {
        if let why = Self.unavailable { throw .unreachable(url: shown, message: why) }
        if let h = idle.withLock({ $0.popLast() }) { return h }
        guard let h = ccurl_easy_init() else { throw .unreachable(url: shown, message: "libcurl could not make a handle") }
        return h
    }

    func giveBack(_ h: UnsafeMutableRawPointer) {
        idle.withLock { $0.append(h) }
    }

    deinit {
        for h in idle.withLock({ $0 }) { ccurl_easy_cleanup(h) }
    }
}
