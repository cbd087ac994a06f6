import Foundation
import Graph

/// Graph statistics as a short human-readable report.
enum StatisticsReport {
    static func text(_ s: GraphStatistics) -> String {
        func estimate(_ e: Estimate) -> String {
            e.method == "exact" ? format(e.value) : "\(format(e.value)) ± \(format(e.errorBound)) (\(e.method))"
        }
        var lines = [
            "nodes                 \(s.nodes)",
            "edges                 \(s.edges)",
            "density               \(format(s.density))",
            "degree                max \(s.degree.max), mean \(format(s.degree.mean))",
            "components            \(s.components.count) (largest \(s.components.largest))",
            "triangles             \(s.triangles)",
            "transitivity          \(format(s.transitivity))",
            "average clustering    \(format(s.averageClustering))  (degree < 2 counts as 0)",
            "max core              \(s.maxCore)",
            "diameter              \(estimate(s.diameter))",
            "average shortest path \(estimate(s.averageShortestPath))",
            "communities           \(s.communities.count), modularity \(format(s.communities.modularity)) (\(s.communities.method))",
            "top degree            " + s.topDegree.prefix(5).map { "\($0.id) (\(Int($0.value)))" }.joined(separator: ", "),
            "top betweenness       " + s.betweenness.top.prefix(5).map { "\($0.id) (\(format($0.value)))" }.joined(separator: ", ")
                + (s.betweenness.method == "exact" ? "" : "  ± \(format(s.betweenness.errorBound)), \(s.betweenness.method)"),
        ]
        if s.meta.droppedSelfLoops + s.meta.droppedDuplicates > 0 {
            lines.append(
                "input                 \(s.meta.droppedSelfLoops) self-loops and \(s.meta.droppedDuplicates) repeated edges ignored")
        }
        return lines.joined(separator: "\n")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(format: "%.6g", value)
    }
}
