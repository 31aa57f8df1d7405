/// The ids of a workload's live rows, for drivers that insert and remove rows at random: any live
/// id is picked in O(1), and a removal swaps the last id into the removed one's place.
struct LiveIDs {
    private(set) var ids: [Int]
    private var position: [Int: Int]

    /// The ids `0..<count`.
    init(count: Int) {
        ids = Array(0..<count)
        position = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, $0) })
    }

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }
    subscript(index: Int) -> Int { ids[index] }

    /// Adds a new id (one not live).
    mutating func insert(_ id: Int) {
        position[id] = ids.count
        ids.append(id)
    }

    /// Removes a live id; its place goes to the last id.
    mutating func remove(_ id: Int) {
        let index = position.removeValue(forKey: id)!
        let last = ids.removeLast()
        if index < ids.count {
            ids[index] = last
            position[last] = index
        }
    }
}
