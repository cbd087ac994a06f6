import ConstellationModel

/// Why a call to the server did not give what was asked.
public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// The server answered with an RFC 9457 problem.
    case problem(Problem)
    /// The server at `server` could not be reached; `reason` says why in plain words ("connection refused").
    case unreachable(server: String, reason: String)
    /// The server answered something this client does not understand.
    case unexpectedResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case .problem(let problem):
            problem.title + (problem.detail.map { " (\($0))" } ?? "") + " [\(problem.code)]"
        case .unreachable(let server, let reason): "cannot reach the server at \(server): \(reason)"
        case .unexpectedResponse(let status, let detail):
            "unexpected response \(status) from the server" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }

    /// The problem's stable code, if the server sent one.
    public var code: String? {
        if case .problem(let problem) = self { problem.code } else { nil }
    }

    /// Whether the server cannot take the request just now, so that the same request may go
    /// through later: it cannot be reached, it says it is unavailable (restarting, failing over,
    /// busy: 503), or a proxy before it says that it did not answer (502, 503, 504).
    public var isTemporary: Bool {
        switch self {
        case .unreachable: true
        case .problem(let problem): problem.status == 503
        case .unexpectedResponse(let status, _): [502, 503, 504].contains(status)
        }
    }

    /// Whether the server answered a problem of `code`.
    public func `is`(_ code: ProblemCode) -> Bool { self.code == code.rawValue }
}
