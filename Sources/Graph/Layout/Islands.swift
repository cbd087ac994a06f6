/// People who met only each other first, were drawn as a small group of their own (a knot of
/// at most `ConstellationLayout.largestKnot`, in the picture's free room), and have since joined
/// the picture's main part: someone drawn in a component of `ConstellationLayout.mainPart`
/// people or more. Settling alone drags such an island across the groups in between, a quarter
/// step a picture, for picture after picture (the group purity a grown picture lost at 300
/// people); started again as newcomers, beside the people they met, they are at home at once.
/// Told by the graph, not by how far they are drawn: a distance that marked them had a cliff on
/// either side (in `docs/benchmarks.md`).
enum Islands {
    /// `previous` with the islands' people unplaced (nil), to be placed again as newcomers.
    /// `componentSizes`: for each placed node, the size of the component it was drawn in;
    /// `components`: the graph's components now.
    static func rejoining(_ previous: [Point?], componentSizes: [Int?], components: Components) -> [Point?] {
        precondition(componentSizes.count == previous.count, "one component size (or nil) per node")
        // Per component now, whether it holds someone drawn in the picture's main part.
        var joinsTheMainPart = [Bool](repeating: false, count: components.count)
        for v in previous.indices where previous[v] != nil && (componentSizes[v] ?? 0) >= ConstellationLayout.mainPart {
            joinsTheMainPart[Int(components.label[v])] = true
        }
        return previous.indices.map { v in
            guard let size = componentSizes[v], size <= ConstellationLayout.largestKnot, joinsTheMainPart[Int(components.label[v])] else {
                return previous[v]
            }
            return nil
        }
    }
}
