#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How deep a piece of code writes into the calling thread's stack: the stack below the caller is
/// painted with a pattern first, the code runs, and the deepest byte no longer holding the pattern
/// is the high-water mark.
///
/// The distance from a call to the frame of the function it ends up in says little: a getter that
/// copies a large value, or a temporary of a large value type, writes its bytes in frames that come
/// and go before the body runs. The high-water sees them.
///
/// ```swift
/// let marker = StackMarker()
/// let store = Store(initial: BigState(), reducer: .reduce { action, state in
///     state.count += 1
///     marker.mark()
/// })
/// let highWater = StackHighWater.measure(marker: marker) { store.dispatch(.increment) }.highWater
/// #expect(highWater.bytesBeyondMark! <= 16 * 1024)
/// ```
///
/// Measure on a thread whose stack has room for the painted region (the main thread has the
/// process's `ulimit -s`); the painting stops 64 KiB above the thread's lowest stack address.
/// Writes shallower than ``resolution`` below the caller are not seen.
public struct StackHighWater: Sendable, Equatable, CustomStringConvertible {
    /// Bytes between the measuring call and the deepest byte written while the body ran (at least
    /// ``resolution``).
    public var bytes: Int
    /// Bytes between the measuring call and the deepest ``StackMarker/mark()`` reached, when a
    /// marker was given and marked.
    public var markedBytes: Int?
    /// Bytes just below the caller that are left unpainted (the measuring code's own frames): a
    /// body that writes no deeper reads as this figure.
    public var resolution: Int
    /// Bytes painted below the resolution gap.
    public var paintedBytes: Int
    /// The deepest painted byte was overwritten: the body went at least as deep as ``bytes``, maybe
    /// deeper (paint more, or measure on a thread with a larger stack).
    public var isSaturated: Bool

    /// Creates a measurement from its figures.
    public init(bytes: Int, markedBytes: Int?, resolution: Int, paintedBytes: Int, isSaturated: Bool) {
        self.bytes = bytes
        self.markedBytes = markedBytes
        self.resolution = resolution
        self.paintedBytes = paintedBytes
        self.isSaturated = isSaturated
    }

    /// How much deeper than the marked frame the body wrote: ``bytes`` − ``markedBytes`` (nil
    /// without a mark). For a reducer that marks, this is the stack used beyond the reducer body's
    /// own frame.
    public var bytesBeyondMark: Int? { markedBytes.map { bytes - $0 } }

    /// One line: high-water, mark and resolution.
    public var description: String {
        var text = "stack high-water \(bytes) bytes"
        if isSaturated { text = "stack high-water ≥ \(bytes) bytes (saturated)" }
        if let markedBytes { text += ", mark at \(markedBytes) bytes (\(bytes - markedBytes) beyond)" }
        return text + ", resolution \(resolution) bytes"
    }

    /// The default depth painted below the caller: 4 MiB (less when the thread's stack is smaller).
    public static let defaultPaintedBytes = 4 << 20

    /// The gap left unpainted below the caller for the measuring code's own frames.
    static let gapBytes = 1024

    /// Room left untouched above the thread's lowest stack address (guard pages, signal frames).
    static let bottomMarginBytes = 64 << 10

    /// The pattern painted, one machine word at a time.
    static let pattern: UInt = 0x5A5A_C3C3_A5A5_3C3C

    /// Paints up to `paintedBytes` of stack below the caller, runs `body`, and returns its result
    /// with the deepest stack byte it wrote.
    ///
    /// - Parameters:
    ///   - paintedBytes: how deep to look (capped by the thread's stack).
    ///   - marker: a marker the body calls ``StackMarker/mark()`` on, to locate a frame (the
    ///     reducer body's, say) in the measurement.
    ///   - body: the code measured; it runs once, synchronously, on the calling thread.
    /// - Complexity: O(`paintedBytes`) to paint and scan, plus the body.
    @inline(never)
    public static func measure<R>(
        paintedBytes: Int = defaultPaintedBytes,
        marker: StackMarker? = nil,
        _ body: () throws -> R
    ) rethrows -> (result: R, highWater: StackHighWater) {
        let anchor = currentStackAddress()
        let region = paint(below: anchor, requested: paintedBytes)
        marker?.arm()
        let result = try body()
        let marked = marker?.disarm()
        let deepest = scan(region)
        let bytes = deepest.map { Int(anchor - $0) } ?? Int(anchor - region.top)
        let highWater = StackHighWater(
            bytes: bytes,
            markedBytes: marked.map { Int(anchor - $0) },
            resolution: Int(anchor - region.top),
            paintedBytes: Int(region.top - region.bottom),
            isSaturated: deepest == region.bottom && region.top > region.bottom
        )
        return (result, highWater)
    }

    /// The painted address range `[bottom, top)`.
    struct Region {
        var bottom: UInt
        var top: UInt
    }

    /// Paints `[max(lowest usable, anchor − gap − requested), anchor − gap)` with the pattern.
    @inline(never)
    static func paint(below anchor: UInt, requested: Int) -> Region {
        let here = currentStackAddress()
        let top = (min(anchor, here) - UInt(gapBytes)) & ~UInt(MemoryLayout<UInt>.size - 1)
        var bottom = top - UInt(max(0, requested))
        if let lowest = threadStackLowestAddress() {
            bottom = max(bottom, lowest + UInt(bottomMarginBytes))
        }
        guard bottom < top else { return Region(bottom: top, top: top) }
        let words = Int(top - bottom) / MemoryLayout<UInt>.size
        let start = UnsafeMutablePointer<UInt>(bitPattern: bottom)!
        start.initialize(repeating: pattern, count: words)
        return Region(bottom: bottom, top: top)
    }

    /// The lowest address in `region` that no longer holds the pattern, or nil.
    @inline(never)
    static func scan(_ region: Region) -> UInt? {
        let words = Int(region.top - region.bottom) / MemoryLayout<UInt>.size
        guard words > 0 else { return nil }
        let start = UnsafePointer<UInt>(bitPattern: region.bottom)!
        var index = 0
        while index < words {
            if start[index] != pattern { return region.bottom + UInt(index * MemoryLayout<UInt>.size) }
            index += 1
        }
        return nil
    }

    /// The lowest address of the calling thread's stack, when the platform tells.
    static func threadStackLowestAddress() -> UInt? {
        #if canImport(Glibc) || canImport(Musl)
        // `pthread_getattr_np` is a GNU extension the C module does not export: look it up.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return UInt(bitPattern: address)
        #elseif canImport(Darwin)
        let high = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        return high - UInt(pthread_get_stacksize_np(pthread_self()))
        #else
        return nil
        #endif
    }
}

/// The address of a local in a fresh frame: the current stack depth, give or take a frame.
@inline(never)
func currentStackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}
