/// `value`, hidden from the optimiser: from its own module and never inlined, a call site cannot
/// tell which value comes back, so closures passed through it are called as values known only at
/// run time (what a library receives from its users).
@inline(never)
public func opaque<T>(_ value: T) -> T {
    value
}
