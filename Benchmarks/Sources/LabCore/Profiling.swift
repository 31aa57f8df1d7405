import CJemalloc

/// Control of jemalloc's heap profiler (`opt.prof`), used by `--profile-scenario`.
public enum HeapProfiler {
    /// Whether jemalloc was started with profiling (`MALLOC_CONF=prof:true`) and supports it.
    public static var isEnabled: Bool {
        var enabled = false
        var size = MemoryLayout<Bool>.size
        return mallctl("opt.prof", &enabled, &size, nil, 0) == 0 && enabled
    }

    /// Whether this jemalloc build was configured with `--enable-prof`.
    public static var isSupported: Bool {
        var supported = false
        var size = MemoryLayout<Bool>.size
        return mallctl("config.prof", &supported, &size, nil, 0) == 0 && supported
    }

    /// Resets the accumulated profile statistics (`prof.reset`).
    public static func reset() {
        _ = mallctl("prof.reset", nil, nil, nil, 0)
    }

    /// Turns sampling on or off (`prof.active`); returns false on failure.
    @discardableResult
    public static func setActive(_ active: Bool) -> Bool {
        var value = active
        return mallctl("prof.active", nil, nil, &value, MemoryLayout<Bool>.size) == 0
    }

    /// Dumps the heap profile to `path` (`prof.dump`); returns false on failure.
    @discardableResult
    public static func dump(to path: String) -> Bool {
        path.withCString { cPath in
            var pointer: UnsafePointer<CChar>? = cPath
            return mallctl("prof.dump", nil, nil, &pointer, MemoryLayout<UnsafePointer<CChar>?>.size) == 0
        }
    }
}
