import CCurl
import Foundation
import Synchronization

/// One HTTP exchange through libcurl's easy interface: the one type that holds curl's pointers.
/// `run()` blocks the thread it is called on until the exchange ends, handing the answer's head
/// and its bytes, as they arrive, to `receive`; `cancel()`, from any thread, stops it within
/// about a second.
final class HTTPTransfer: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var headers: [(name: String, value: String)] = []
    private var headSent = false
    private var received = 0
    private let limit: Int
    private let receive: (HTTPPart) -> Void
    private let cancelled = Atomic<Bool>(false)

    /// - Parameters:
    ///   - limit: the most body bytes taken; more fails the transfer ("the answer is too large").
    ///   - receive: called on the transfer's thread, in order.
    init(_ request: HTTPRequest, over transport: HTTPTransport, limit: Int, receive: @escaping (HTTPPart) -> Void) throws(TransportFailure)
    {
        if let kept = Self.idle.take() {
            handle = kept
        } else {
            guard Self.libraryReady, let handle = curl_easy_init() else { throw TransportFailure("the HTTP library did not start") }
            self.handle = handle
        }
        self.limit = limit
        self.receive = receive
        let context = Unmanaged.passUnretained(self).toOpaque()
        var failed = false
        func set(_ code: CURLcode) { failed = failed || code != CURLE_OK }
        set(ccurl_set_string(handle, CURLOPT_URL, request.url))
        set(ccurl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        // Only the server named: no proxy from the environment (http_proxy would take loopback too).
        set(ccurl_set_string(handle, CURLOPT_NOPROXY, "*"))
        // A kept connection idle for 30 s is not reused: the server closes one idle for 60 s
        // (`CONSTELLATION_IDLE_TIMEOUT_SECONDS`), and a call sent as it closes would fail.
        set(ccurl_set_long(handle, CURLOPT_MAXAGE_CONN, 30))
        set(ccurl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(transport.connectTimeout)))
        if let deadline = request.deadline { set(ccurl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(deadline))) }
        if let silence = request.longestSilence {
            set(ccurl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
            set(ccurl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Self.milliseconds(silence) / 1000)))
        }
        if let authorities = transport.authorities {
            // The file's authorities and the system's, as a browser that was given one more would.
            set(ccurl_set_string(handle, CURLOPT_CAINFO, authorities))
            set(ccurl_set_string(handle, CURLOPT_CAPATH, "/etc/ssl/certs"))
        }
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        // No `Expect: 100-continue` wait before a large body, and no form type curl would add.
        lines.append("Expect:")
        switch request.method {
        case "GET":
            set(ccurl_set_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD":
            set(ccurl_set_long(handle, CURLOPT_NOBODY, 1))
        default:
            let body = request.body ?? []
            if request.body == nil { lines.append("Content-Type:") }
            set(ccurl_set_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            // curl copies the body's size of it (never empty, so that there is an address).
            let copied = body + [0]
            set(
                copied.withUnsafeBytes {
                    ccurl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!))
                })
            set(ccurl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        set(ccurl_set_headers(handle, headerList))
        set(
            ccurl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
                Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().headerLine(buffer, size * count)
            })
        set(ccurl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        set(
            ccurl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().bodyBytes(buffer, size * count)
            })
        set(ccurl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        set(ccurl_set_long(handle, CURLOPT_NOPROGRESS, 0))
        set(
            ccurl_set_progress_callback(handle) { context, _, _, _, _ in
                Unmanaged<HTTPTransfer>.fromOpaque(context!).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
            })
        set(ccurl_set_pointer(handle, CURLOPT_XFERINFODATA, context))
        guard !failed else { throw TransportFailure("the server's URL is not valid") }
    }

    /// The handle goes back to the shelf, its options cleared and its connections kept, unless
    /// enough handles wait there already.
    deinit {
        curl_easy_reset(handle)
        curl_slist_free_all(headerList)
        if !Self.idle.keep(handle) { curl_easy_cleanup(handle) }
    }

    /// Runs the exchange to its end on this thread: nil when the answer was read whole, else why not.
    func run() -> TransportFailure? {
        let code = curl_easy_perform(handle)
        if code == CURLE_OK {
            sendHead()
            return nil
        }
        return failure(code)
    }

    /// Stops a running exchange (it ends as cancelled), from any thread.
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    // MARK: - Callbacks

    private func headerLine(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let buffer else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = []  // a new answer's head (after a 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return count
    }

    private func bodyBytes(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let buffer else { return count }
        received += count
        guard received <= limit else { return 0 }  // curl ends with CURLE_WRITE_ERROR
        sendHead()
        receive(.bytes(Array(UnsafeRawBufferPointer(start: buffer, count: count))))
        return count
    }

    private func sendHead() {
        guard !headSent else { return }
        headSent = true
        var status = 0
        _ = ccurl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        receive(.head(HTTPHead(status: status, headers: headers)))
    }

    // MARK: - Failures in plain words

    private func failure(_ code: CURLcode) -> TransportFailure {
        switch code {
        case CURLE_COULDNT_CONNECT:
            var number = 0
            _ = ccurl_get_long(handle, CURLINFO_OS_ERRNO, &number)
            return TransportFailure(number == 0 ? "cannot connect" : Self.systemMessage(Int32(number)))
        case CURLE_COULDNT_RESOLVE_HOST: return TransportFailure("cannot find the host")
        case CURLE_OPERATION_TIMEDOUT: return TransportFailure("the server did not answer in time")
        case CURLE_PEER_FAILED_VERIFICATION: return TransportFailure("the server's TLS certificate is not trusted")
        case CURLE_SSL_CONNECT_ERROR: return TransportFailure("the TLS handshake failed")
        case CURLE_SSL_CACERT_BADFILE: return TransportFailure("cannot read the certificate authorities")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return TransportFailure("the server closed the connection")
        case CURLE_ABORTED_BY_CALLBACK: return TransportFailure("the request was cancelled")
        case CURLE_WRITE_ERROR: return TransportFailure("the answer is too large", answerTooLarge: true)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return TransportFailure("the server's URL is not valid")
        default:
            let message = String(cString: curl_easy_strerror(code))
            return TransportFailure(message.prefix(1).lowercased() + message.dropFirst())
        }
    }

    /// The C library's message for `code`, starting in lower case: "connection refused".
    private static func systemMessage(_ code: Int32) -> String {
        let message = String(cString: strerror(code))
        return message.prefix(1).lowercased() + message.dropFirst()
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000)
    }

    /// libcurl's process-wide start, once, before the first handle.
    private static let libraryReady = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Handles between exchanges, with their connections still open: curl reuses a handle's
    /// connection to the same server (and the same TLS settings), as a browser keeps its
    /// connections alive, rather than connect again for every call of a test or a live page.
    private static let idle = Shelf()

    /// At most eight idle handles, enough for a client's calls at once (a page's or a test's);
    /// more would hold idle sockets. A pthread lock (`NSLock`), not `Mutex`, whose futex
    /// ThreadSanitizer cannot see.
    private final class Shelf: @unchecked Sendable {
        private let lock = NSLock()
        private var handles: [UnsafeMutableRawPointer] = []

        func take() -> UnsafeMutableRawPointer? { lock.withLock { handles.popLast() } }

        /// Whether `handle` was kept; if not, its owner cleans it up.
        func keep(_ handle: UnsafeMutableRawPointer) -> Bool {
            lock.withLock {
                guard handles.count < 8 else { return false }
                handles.append(handle)
                return true
            }
        }
    }
}

/// Why an exchange did not happen, in plain words ("connection refused").
package struct TransportFailure: Error {
    package let reason: String
    /// The server answered, with more than the exchange takes: not a failure to reach it.
    package let answerTooLarge: Bool

    init(_ reason: String, answerTooLarge: Bool = false) {
        self.reason = reason
        self.answerTooLarge = answerTooLarge
    }
}
