import ConstellationModel
import GraphExport
import Hummingbird

extension LayoutDocument.Format {
    /// The request's `?format=` (default `json`) if it is one of `offered`; else 400 `unsupported_format`
    /// listing them.
    static func requested(by request: Request, offering offered: [Self]) throws -> Self {
        let name = request.uri.queryParameters.get("format") ?? "json"
        guard let format = Self(rawValue: name), offered.contains(format) else {
            throw Problem(.unsupportedFormat, detail: "format must be one of \(offered.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        return format
    }
}
