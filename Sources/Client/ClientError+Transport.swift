import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

extension ClientError {
    /// A transport failure from AsyncHTTPClient or NIO in plain words ("connection refused",
    /// "the server did not answer in time"), without errno numbers or type names.
    static func reason(for error: any Error) -> String {
        switch error {
        case let error as IOError:
            return systemMessage(error.errnoCode)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot find the host \(error.host)" }
            return error.connectionErrors.first.map { reason(for: $0.error) } ?? "cannot connect to \(error.host) port \(error.port)"
        case let error as HTTPClientError:
            return reason(for: error)
        case let error as ChannelError:
            if case .connectTimeout = error { return "the connection timed out" }
            return "the connection was closed"
        case is NIOTooManyBytesError:
            return "the answer is too large"
        case is CancellationError:
            return "the request was cancelled"
        case let error where String(describing: error).contains("CERTIFICATE_VERIFY_FAILED"):
            return "the server's TLS certificate is not trusted"
        default:
            return "the connection failed"
        }
    }

    private static func reason(for error: HTTPClientError) -> String {
        switch error {
        case .connectTimeout: "the connection timed out"
        case .readTimeout, .writeTimeout, .deadlineExceeded: "the server did not answer in time"
        case .remoteConnectionClosed: "the server closed the connection"
        case .tlsHandshakeTimeout: "the TLS handshake timed out"
        case .cancelled: "the request was cancelled"
        case .invalidURL, .emptyHost, .emptyScheme: "the server's URL is not valid"
        default: "the request failed"
        }
    }

    /// The C library's message for `code`, starting in lower case: "connection refused".
    private static func systemMessage(_ code: CInt) -> String {
        let message = String(cString: strerror(code))
        return message.prefix(1).lowercased() + message.dropFirst()
    }
}
