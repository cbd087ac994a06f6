import ConstellationModel
import NIOCore

/// A body past the context's `maxUploadSize`.
extension NIOTooManyBytesError: ProblemConvertible {
    package var problem: Problem { .payloadTooLarge }
}
