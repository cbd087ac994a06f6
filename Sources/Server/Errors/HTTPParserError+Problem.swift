import ConstellationModel
import NIOHTTP1

/// A request whose body the parser could not read (a malformed chunk size, a chunk without its
/// CRLF): the client's fault, however far the route had got.
extension HTTPParserError: ProblemConvertible {
    package var problem: Problem { RequestTracker.malformed }
}
