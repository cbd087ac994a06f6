import Foundation
import Glibc
import NIOPosix

/// A plain TCP connection to a loopback port, for requests no HTTP client would send:
/// half-sent headers, oversized lines, unknown methods, idle sockets, half-closed ones, readers
/// that never read. Reads block, so they run on NIO's blocking pool: the in-process server
/// answering them needs Swift concurrency's threads.
final class RawHTTP: Sendable {
    private let socket: Int32

    /// With `receiveBuffer`, the socket's receive buffer is that small (set before connecting);
    /// `source` is the loopback address it connects from (another client, as the server sees it).
    init(port: Int, receiveBuffer: Int32? = nil, from source: String = "127.0.0.1") throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(socket)
            throw RawHTTPError(message: "cannot bind to \(source)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw RawHTTPError(message: "cannot connect to port \(port)")
        }
    }

    deinit { close(socket) }

    /// Ends the connection now, as a client that goes away does.
    func hangUp() { shutdown(socket, Int32(SHUT_RDWR)) }

    /// Closes the sending side only (a FIN), still reading: as a client that has sent all it will.
    func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection, or until `timeout` passes
    /// (then `closed` is false).
    func readUntilClosed(timeout: TimeInterval) async throws -> (text: String, closed: Bool, seconds: TimeInterval) {
        try await NIOThreadPool.singleton.runIfActive { self.blockingRead(timeout: timeout) }
    }

    /// What the server sends until it has sent `marker`, closed the connection or `timeout` passed.
    func read(until marker: String, timeout: TimeInterval) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { self.blockingRead(timeout: timeout, until: marker).text }
    }

    private func blockingRead(timeout: TimeInterval, until marker: String? = nil) -> (text: String, closed: Bool, seconds: TimeInterval) {
        let start = Date()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = timeout - Date().timeIntervalSince(start)
            guard left > 0 else { return (String(decoding: received, as: UTF8.self), false, Date().timeIntervalSince(start)) }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true, Date().timeIntervalSince(start)) }
            received += buffer[0..<count]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) {
                return (String(decoding: received, as: UTF8.self), false, Date().timeIntervalSince(start))
            }
        }
    }

    /// Sends a whole request with `Connection: close` and returns the raw response. It returns as
    /// soon as the server closes; the generous bound is for a machine busy with hundreds of tests.
    static func exchange(port: Int, _ request: String, timeout: TimeInterval = 60) async throws -> String {
        let connection = try RawHTTP(port: port)
        connection.send(request)
        return try await connection.readUntilClosed(timeout: timeout).text
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension String {
    /// The status code of a raw HTTP response.
    var httpStatus: Int? { split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } }

    /// A header's value in a raw HTTP response (names compared case-insensitively).
    func httpHeader(_ name: String) -> String? {
        let head = components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// The body of a raw HTTP response.
    var httpBody: String { components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }
}
