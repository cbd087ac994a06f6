/// Working memory of a fixed size for hot loops: reads and writes skip the bounds and uniqueness
/// checks of `Array` (keeping indices in range is the caller's duty). Freed with the object.
final class Scratch<Element: BitwiseCopyable> {
    private let base: UnsafeMutablePointer<Element>
    let count: Int

    init(repeating value: Element, count: Int) {
        self.count = count
        base = .allocate(capacity: max(count, 1))
        base.initialize(repeating: value, count: count)
    }

    init(_ elements: [Element]) {
        count = elements.count
        base = .allocate(capacity: max(count, 1))
        _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: elements)
    }

    deinit { base.deallocate() }

    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    /// The contents as an array.
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
