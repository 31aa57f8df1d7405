/// Yields the main actor until `condition` holds (at most `turns` times).
@MainActor
func eventually(_ condition: () -> Bool, turns: Int = 1_000) async -> Bool {
    for _ in 0..<turns {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
