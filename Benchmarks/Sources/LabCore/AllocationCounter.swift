import CJemalloc

/// A point-in-time reading of jemalloc's allocation statistics.
public struct AllocationSnapshot: Equatable, Sendable {
    /// Cumulative number of allocation requests served by all arenas
    /// (`stats.arenas.4096.small.nrequests + stats.arenas.4096.large.nrequests`).
    public var count: UInt64
    /// Cumulative bytes allocated by every thread, counted in jemalloc size classes (usable size,
    /// not requested size): each size class's request count times the class's size.
    public var bytes: UInt64

    /// Creates a snapshot from raw counter values.
    public init(count: UInt64, bytes: UInt64) {
        self.count = count
        self.bytes = bytes
    }

    /// The allocations that happened between `earlier` and `self`.
    public func since(_ earlier: AllocationSnapshot) -> AllocationSnapshot {
        AllocationSnapshot(count: count &- earlier.count, bytes: bytes &- earlier.bytes)
    }
}

/// Errors raised while talking to jemalloc.
public enum AllocationCounterError: Error, CustomStringConvertible, Equatable {
    /// A `mallctl` name could not be resolved (jemalloc missing or built without stats).
    case unavailable(name: String, code: Int32)
    /// The counter read zero allocations: jemalloc is linked but malloc is not routed to it.
    case jemallocNotActive
    /// The counter read back a different number than the known allocations made.
    case calibrationMismatch(expected: UInt64, measured: UInt64)
    /// Allocations of one size class were not counted exactly (count or bytes).
    case sizeClassMismatch(size: Int, kind: SizeClassKind, expected: AllocationSnapshot, measured: AllocationSnapshot)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .unavailable(let name, let code):
            return "jemalloc control '\(name)' is unavailable (mallctl error \(code)); is libjemalloc (with stats) linked?"
        case .jemallocNotActive:
            return
                "jemalloc is not the active allocator: allocations made by Swift are not counted (counter read 0). Allocation figures would be meaningless."
        case .calibrationMismatch(let expected, let measured):
            return "allocation counter calibration failed: made \(expected) allocations but jemalloc reported \(measured)."
        case .sizeClassMismatch(let size, let kind, let expected, let measured):
            return
                "allocation counter calibration failed for the \(kind) size class of \(size) bytes: made \(expected.count) allocations of \(expected.bytes) bytes but jemalloc reported \(measured.count) allocations of \(measured.bytes) bytes."
        }
    }
}

/// Exact allocation counting through jemalloc's `mallctl` statistics.
///
/// The MIBs are resolved once. Every `snapshot()` flushes the calling
/// thread's tcache (so its request counts are merged into the arena stats)
/// and advances `epoch` (so the stats are refreshed) before reading.
/// Counts and bytes cover every thread. Bytes are the sum over jemalloc's size classes of each
/// class's request count times its size, not `thread.allocated`: that one counts the calling
/// thread only, and a measured closure that awaits can resume on another thread (the main actor
/// runs on libdispatch's workers once the main thread parks), where the difference of two
/// readings is meaningless (an `Effect.task` round trip read 137 KB per operation that way).
public final class AllocationCounter {
    private var epochMIB: [Int]
    private var flushMIB: [Int]
    private var smallMIB: [Int]
    private var largeMIB: [Int]
    /// Each size class's request counter and the class's size: small bins, then large extents.
    private var classMIBs: [(mib: [Int], size: UInt64, isLarge: Bool)]
    private var threadArenaMIB: [Int]
    /// Whether large (and huge) requests are read; only tests turn it off, to prove that the
    /// size-class calibration notices.
    var countsLarge = true

    /// Resolves the `mallctl` names; throws if jemalloc statistics are unavailable.
    public init() throws {
        epochMIB = try Self.mib("epoch")
        flushMIB = try Self.mib("thread.tcache.flush")
        smallMIB = try Self.mib("stats.arenas.4096.small.nrequests")
        largeMIB = try Self.mib("stats.arenas.4096.large.nrequests")
        var classes: [(mib: [Int], size: UInt64, isLarge: Bool)] = []
        let bins = Int(Self.readControl("arenas.nbins", as: UInt32.self) ?? 0)
        for index in 0..<bins {
            guard let size = Self.readControl("arenas.bin.\(index).size", as: Int.self) else { continue }
            classes.append((try Self.mib("stats.arenas.4096.bins.\(index).nrequests"), UInt64(size), false))
        }
        let extents = Int(Self.readControl("arenas.nlextents", as: UInt32.self) ?? 0)
        for index in 0..<extents {
            guard let size = Self.readControl("arenas.lextent.\(index).size", as: Int.self) else { continue }
            classes.append((try Self.mib("stats.arenas.4096.lextents.\(index).nrequests"), UInt64(size), true))
        }
        guard !classes.isEmpty else { throw AllocationCounterError.unavailable(name: "arenas.nbins", code: 0) }
        classMIBs = classes
        threadArenaMIB = try Self.mib("thread.arena")
    }

    private static func mib(_ name: String) throws -> [Int] {
        var mib = [Int](repeating: 0, count: 8)
        var length = mib.count
        let code = mib.withUnsafeMutableBufferPointer { buffer in
            mallctlnametomib(name, buffer.baseAddress, &length)
        }
        guard code == 0 else { throw AllocationCounterError.unavailable(name: name, code: code) }
        return Array(mib.prefix(length))
    }

    private func readUInt64(_ mib: inout [Int]) -> UInt64 {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let length = mib.count
        _ = mib.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, length, &value, &size, nil, 0)
        }
        return value
    }

    /// Flushes the tcache, refreshes the statistics and reads the counters.
    public func snapshot() -> AllocationSnapshot {
        let flushLength = flushMIB.count
        _ = flushMIB.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, flushLength, nil, nil, nil, 0)
        }
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var epochSize = MemoryLayout<UInt64>.size
        let epochLength = epochMIB.count
        _ = epochMIB.withUnsafeMutableBufferPointer { buffer in
            mallctlbymib(buffer.baseAddress, epochLength, &oldEpoch, &epochSize, &newEpoch, MemoryLayout<UInt64>.size)
        }
        let count = readUInt64(&smallMIB) &+ (countsLarge ? readUInt64(&largeMIB) : 0)
        var bytes: UInt64 = 0
        for index in classMIBs.indices where countsLarge || !classMIBs[index].isLarge {
            let requests = readUInt64(&classMIBs[index].mib)
            if requests != 0 { bytes &+= requests &* classMIBs[index].size }
        }
        return AllocationSnapshot(count: count, bytes: bytes)
    }

    /// Counts the allocations made by `body`.
    public func measure(_ body: () -> Void) -> AllocationSnapshot {
        let before = snapshot()
        body()
        return snapshot().since(before)
    }

    /// The arena ``measureInOwnArena(_:)`` moves the calling thread to, created on first use
    /// (jemalloc gives an arena made with `arenas.create` to no thread by itself).
    private var ownArena: UInt32?

    /// Counts exactly the allocations and bytes the calling thread makes in `body` (synchronous
    /// work): the thread allocates from an arena of its own while `body` runs, and only that
    /// arena's statistics are read, so what other threads allocate meanwhile (tests running in
    /// parallel) cannot reach the figures. Nil when jemalloc refuses an arena.
    public func measureInOwnArena(_ body: () -> Void) -> AllocationSnapshot? {
        if ownArena == nil { ownArena = Self.readControl("arenas.create", as: UInt32.self) }
        guard let arena = ownArena, var previous = Self.readControl("thread.arena", as: UInt32.self) else { return nil }
        // Read outside the arena (reading allocates), and with nothing but `body` in between:
        // the thread cache is emptied into the arena it came from before and after the switches.
        // By MIB, through buffers made before: a control named by a short Swift string allocates a
        // C copy of the name (two allocations counted per measurement that way).
        let before = Self.arenaSnapshot(arena)
        var target = arena
        let switched = flushMIB.withUnsafeMutableBufferPointer { flush in
            threadArenaMIB.withUnsafeMutableBufferPointer { threadArena in
                _ = mallctlbymib(flush.baseAddress, flush.count, nil, nil, nil, 0)
                guard mallctlbymib(threadArena.baseAddress, threadArena.count, nil, nil, &target, MemoryLayout<UInt32>.size) == 0 else {
                    return false
                }
                body()
                _ = mallctlbymib(flush.baseAddress, flush.count, nil, nil, nil, 0)
                _ = mallctlbymib(threadArena.baseAddress, threadArena.count, nil, nil, &previous, MemoryLayout<UInt32>.size)
                return true
            }
        }
        return switched ? Self.arenaSnapshot(arena).since(before) : nil
    }

    /// `arena`'s request counts and bytes (size classes), the statistics refreshed first.
    private static func arenaSnapshot(_ arena: UInt32) -> AllocationSnapshot {
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        let prefix = "stats.arenas.\(arena)"
        let count =
            (readControl("\(prefix).small.nrequests", as: UInt64.self) ?? 0) &+ (readControl("\(prefix).large.nrequests", as: UInt64.self) ?? 0)
        var bytes: UInt64 = 0
        for (kind, total) in [("bins", "arenas.nbins"), ("lextents", "arenas.nlextents")] {
            let classes = Int(readControl(total, as: UInt32.self) ?? 0)
            for index in 0..<classes {
                let requests = readControl("\(prefix).\(kind).\(index).nrequests", as: UInt64.self) ?? 0
                let size = readControl(kind == "bins" ? "arenas.bin.\(index).size" : "arenas.lextent.\(index).size", as: Int.self) ?? 0
                bytes &+= requests &* UInt64(size)
            }
        }
        return AllocationSnapshot(count: count, bytes: bytes)
    }

    /// Allocates `objects` class instances kept alive in a pre-reserved array and
    /// checks that exactly that many allocations are read back. Retries a few
    /// times (taking the minimum) so a stray allocation on another thread cannot
    /// fail it; throws a clear error otherwise.
    @discardableResult
    public func calibrate(objects: Int = 1000, attempts: Int = 5) throws -> UInt64 {
        var best = UInt64.max
        for _ in 0..<max(1, attempts) {
            var keep: [CalibrationObject] = []
            keep.reserveCapacity(objects)
            let measured = measure {
                for index in 0..<objects { keep.append(CalibrationObject(index)) }
            }
            blackHole(keep)
            best = min(best, measured.count)
            if best == UInt64(objects) { return best }
        }
        if best == 0 { throw AllocationCounterError.jemallocNotActive }
        throw AllocationCounterError.calibrationMismatch(expected: UInt64(objects), measured: best)
    }

    /// Allocates `perClass` blocks of every size class jemalloc has up to `largeLimit` bytes
    /// (every small class, every large class), and of three huge sizes at and above jemalloc's
    /// `opt.oversize_threshold` (served by its dedicated huge arena), with `malloc` (which Swift's
    /// allocations end in); checks that the counter reads exactly
    /// `perClass` allocations and `perClass × nallocx(size)` bytes for each. Retries a class a
    /// few times (taking the minimum) so a stray allocation on another thread cannot fail it.
    ///
    /// - Returns: what was calibrated, for the run's log.
    @discardableResult
    public func calibrateSizeClasses(perClass: Int = 3, largeLimit: Int = 4 << 20, attempts: Int = 5) throws -> SizeClassCalibration {
        let classes = Self.sizeClasses(largeLimit: largeLimit)
        for sizeClass in classes.all {
            let expected = AllocationSnapshot(count: UInt64(perClass), bytes: UInt64(perClass) * UInt64(nallocx(sizeClass.size, 0)))
            var best = AllocationSnapshot(count: .max, bytes: .max)
            for _ in 0..<max(1, attempts) {
                var blocks: [UnsafeMutableRawPointer] = []
                blocks.reserveCapacity(perClass)
                let before = snapshot()
                for _ in 0..<perClass {
                    if let block = malloc(sizeClass.size) { blocks.append(block) }
                }
                let delta = snapshot().since(before)
                for block in blocks { free(block) }
                best.count = min(best.count, delta.count)
                best.bytes = min(best.bytes, delta.bytes)
                if best == expected { break }
            }
            guard best == expected else {
                throw AllocationCounterError.sizeClassMismatch(size: sizeClass.size, kind: sizeClass.kind, expected: expected, measured: best)
            }
        }
        return classes
    }

    /// jemalloc's size classes: every small bin, every large class up to `largeLimit`, and three
    /// huge sizes (the oversize threshold plus one byte, twice and eight times it).
    public static func sizeClasses(largeLimit: Int) -> SizeClassCalibration {
        let bins = Int(readControl("arenas.nbins", as: UInt32.self) ?? 0)
        let small = (0..<bins).compactMap { readControl("arenas.bin.\($0).size", as: Int.self) }
        let extents = Int(readControl("arenas.nlextents", as: UInt32.self) ?? 0)
        var large: [Int] = []
        for index in 0..<extents {
            guard let size = readControl("arenas.lextent.\(index).size", as: Int.self), size <= largeLimit else { break }
            large.append(size)
        }
        let threshold = readControl("opt.oversize_threshold", as: Int.self) ?? (8 << 20)
        let huge = threshold > 0 ? [threshold + 1, 2 * threshold, 8 * threshold] : []
        return SizeClassCalibration(small: small, large: large, huge: huge, oversizeThreshold: threshold)
    }

    /// Reads a `mallctl` value by name, or nil.
    static func readControl<T>(_ name: String, as type: T.Type) -> T? {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { pointer.deallocate() }
        var size = MemoryLayout<T>.size
        guard mallctl(name, pointer, &size, nil, 0) == 0, size == MemoryLayout<T>.size else { return nil }
        return pointer.pointee
    }

    /// Whether jemalloc runs with thread caches (`opt.tcache`: on unless `MALLOC_CONF` turns it
    /// off). Then another thread's requests reach the statistics only when its cache flushes.
    public static var threadCachesEnabled: Bool { readControl("opt.tcache", as: Bool.self) ?? false }

    /// The jemalloc version string (e.g. `5.3.0-0-g…`), or nil.
    public static var jemallocVersion: String? {
        var pointer: UnsafePointer<CChar>? = nil
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
        return String(cString: pointer)
    }
}

/// Which part of jemalloc serves a size class.
public enum SizeClassKind: String, Sendable, CustomStringConvertible {
    /// Slab-allocated classes up to 14 KiB (with 4 KiB pages).
    case small
    /// Page-run classes above the small ones.
    case large
    /// Sizes at or above `opt.oversize_threshold`, served by jemalloc's dedicated huge arena.
    case huge

    /// The kind's name.
    public var description: String { rawValue }
}

/// The size classes a calibration covered.
public struct SizeClassCalibration: Sendable, Equatable {
    /// Small class sizes.
    public var small: [Int]
    /// Large class sizes (up to the calibration's limit).
    public var large: [Int]
    /// Huge sizes (at or above the oversize threshold).
    public var huge: [Int]
    /// jemalloc's `opt.oversize_threshold`.
    public var oversizeThreshold: Int

    /// Every size with its kind, smallest first.
    public var all: [(size: Int, kind: SizeClassKind)] {
        small.map { ($0, .small) } + large.map { ($0, .large) } + huge.map { ($0, .huge) }
    }

    /// One line for the run's log.
    public var summary: String {
        "\(small.count) small (\(small.first ?? 0)–\(small.last ?? 0) B), \(large.count) large (\(formatBytes(Double(large.first ?? 0)))–\(formatBytes(Double(large.last ?? 0)))) and \(huge.count) huge (\(huge.map { formatBytes(Double($0)) }.joined(separator: ", ")); oversize threshold \(formatBytes(Double(oversizeThreshold)))) size classes"
    }
}

/// A tiny heap object used to calibrate the counter (one allocation each).
final class CalibrationObject {
    let value: Int
    init(_ value: Int) { self.value = value }
}
