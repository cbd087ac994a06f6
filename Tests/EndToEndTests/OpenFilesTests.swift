import Foundation
import TestSupport
import Testing

/// The release server and its open-file limit: it raises its soft limit to the hard one at start
/// (systemd's default soft limit is 1,024), says what it holds, and sizes its live streams to keep
/// a quarter of the descriptors for everything else (`StreamCapacityTests` shows the refusal).
@Suite(.tier(.endToEnd)) struct OpenFilesTests {
    let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")

    @Test func theServerRaisesItsSoftLimitAndSizesItsStreamsToIt() async throws {
        let database = try await TestDatabase.createEmpty()
        let raised = try ServerProcess(
            databaseURL: database, dataDirectory: workspace.appendingPathComponent("raised"), logLevel: "notice",
            openFiles: (soft: 256, hard: 4_096))
        defer { _ = raised.stop() }
        #expect(try await raised.client.health())
        let line = try #require(
            raised.logText.split(separator: "\n").first { $0.contains("open files and live streams") }, "\(raised.logText)")
        #expect(line.contains("files.limit=4096") && line.contains("files.limit_before=256"), "\(line)")
        #expect(line.contains("streams.limit=3072"), "three quarters of 4,096: \(line)")

        // A hard limit of 192: it cannot raise; 64 descriptors are kept for the rest, 128 for streams.
        let low = try ServerProcess(
            databaseURL: database, dataDirectory: workspace.appendingPathComponent("low"), logLevel: "notice",
            openFiles: (soft: 192, hard: 192))
        defer { _ = low.stop() }
        #expect(try await low.client.health())
        let lowLine = try #require(
            low.logText.split(separator: "\n").first { $0.contains("open files and live streams") }, "\(low.logText)")
        #expect(lowLine.contains("files.limit=192") && lowLine.contains("streams.limit=128"), "\(lowLine)")
    }
}
