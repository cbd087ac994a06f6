import Foundation
import Glibc

/// A TCP socket bound to a free port on 127.0.0.1: listening and never accepting (a host that
/// takes a connection and never answers), or only bound, to learn a port another program may take.
public struct LoopbackSocket: Sendable {
    public let descriptor: Int32
    public let port: Int

    public init(listening: Bool) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && (!listening || listen(descriptor, 8) == 0)
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else {
            let failure = POSIXError(.init(rawValue: errno) ?? .EIO)
            Glibc.close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    public func close() { _ = Glibc.close(descriptor) }

    /// A port that was free a moment ago, for a program to listen on.
    public static func freePort() throws -> Int {
        let socket = try LoopbackSocket(listening: false)
        socket.close()
        return socket.port
    }
}
