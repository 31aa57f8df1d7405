extension EffectMachine {
    // MARK: Slots

    @inlinable
    mutating func nextGeneration() -> UInt64 {
        generationCounter &+= 1
        return generationCounter
    }

    /// A fresh key that never equals a user id: the private registration of an id-less component.
    @inlinable
    mutating func nextAnonymousKey() -> AnyHashableSendable {
        anonymousCounter &+= 1
        return AnyHashableSendable(AnonymousEffectKey(value: anonymousCounter))
    }

    /// The slot of `key`, made when it has none (a freed one reused first).
    @inlinable
    mutating func slotFor(_ key: AnyHashableSendable) -> Int {
        // The slot found last is checked first: a search-style id comes back with every query,
        // and comparing one key costs a fraction of the dictionary's hashing and probing. A freed
        // slot's key is nil, so a stale slot never matches.
        if lastSlot >= 0, lastSlot < slotKey.count, Self.holds(&slotKey[lastSlot], key) { return lastSlot }
        if let slot = slotIndex[key] {
            lastSlot = slot
            return slot
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slotKey[slot] = key
        } else {
            slot = run.count
            slotKey.append(key)
            run.append(.idle)
            sinks.append(nil)
            waiting.append(nil)
            deliverTimer.append(nil)
            settleTimer.append(nil)
            stamp.append(nil)
        }
        slotIndex[key] = slot
        lastSlot = slot
        return slot
    }

    /// Whether the stored key is `key`, compared where it lies: read through the array's getter,
    /// the optional key was copied and destroyed around the comparison.
    @inlinable @inline(__always)
    static func holds(_ stored: inout AnyHashableSendable?, _ key: AnyHashableSendable) -> Bool {
        stored?.isSameKey(as: key) ?? false
    }

    /// Takes the slot's run out, leaving it idle: its tokens (and a channel's pending delivery's,
    /// or a waiting start's) go into `cancels`, moved, not copied. A run still starting is the
    /// engine's to report: no event reaches the machine between a step and its report.
    @inlinable
    mutating func stopRun(_ slot: Int, into cancels: inout EffectCancellations) {
        if case .idle = run[slot] { return }
        var taken = Run.idle
        swap(&taken, &run[slot])
        switch consume taken {
        case .idle:
            return
        case .starting(let generation):
            preconditionFailure("Internal inconsistency: run \(generation) stopped before the engine reported its start")
        case .oneShot(_, let token):
            cancels.append(token)
        case .waiting:
            waiting[slot] = nil
            dropTimer(slot, .start, into: &cancels)
        case .channel(_, let token):
            sinks[slot] = nil
            dropTimer(slot, .deliver, into: &cancels)
            deliverTimer[slot] = nil
            cancels.append(token)
        }
    }

    /// Whether the slot's run is a start waiting on its timer.
    @inlinable
    func isWaiting(_ slot: Int) -> Bool {
        if case .waiting = run[slot] { return true }
        return false
    }

    /// Frees the slot when nothing is left in it: no run, timer or throttle stamp.
    @inlinable
    mutating func freeIfEmpty(_ slot: Int) {
        guard case .idle = run[slot], !Self.isPending(&deliverTimer[slot]), !Self.isPending(&settleTimer[slot]), case .none = stamp[slot],
            let key = slotKey[slot]
        else { return }
        slotIndex[key] = nil
        slotKey[slot] = nil
        freeSlots.append(slot)
    }

    // MARK: Inspection

    /// Keys with a live channel, in slot order.
    var openChannelKeys: [AnyHashableSendable] {
        run.indices.compactMap { index in
            if case .channel = run[index] { return slotKey[index] }
            return nil
        }
    }

    /// Whether every registered run is a live channel and no timer is pending.
    var isQuiescent: Bool {
        for index in run.indices {
            switch run[index] {
            case .idle, .channel: break
            case .starting, .oneShot, .waiting: return false
            }
            if case .some = deliverTimer[index] { return false }
            if case .some = settleTimer[index] { return false }
        }
        return true
    }

    /// Whether a one-shot run is registered (timers and channels aside): something that may still
    /// send actions without the clock moving.
    var hasRunningWork: Bool {
        run.contains { run in
            switch run {
            case .starting, .oneShot: return true
            case .idle, .waiting, .channel: return false
            }
        }
    }

    /// The number of keys with a run, a timer, a channel or a throttle stamp.
    var liveKeyCount: Int { slotIndex.count }

    /// Whether `key` holds anything.
    @inlinable
    func isRegistered(_ key: AnyHashableSendable) -> Bool { slotIndex[key] != nil }

    /// What a registered key still holds, for diagnostics.
    enum Holding {
        /// A one-shot run that started and has not completed.
        case running
        /// A one-shot run waiting on a timer (delay or debounce) before it starts.
        case waitingToStart(Payload)
        /// A live channel.
        case openChannel
        /// A value waiting on a debounce timer before it is delivered into a live channel (with the
        /// pacing the channel registered when it opened).
        case pendingDelivery(ChannelDelivery?)
        /// A channel re-creation waiting for its settle time.
        case settling
    }

    /// Everything still running, waiting or open, by key, in slot order (throttle windows aside).
    var holdings: [(key: AnyHashableSendable, holding: Holding)] {
        var result: [(key: AnyHashableSendable, holding: Holding)] = []
        for index in run.indices {
            guard let key = slotKey[index] else { continue }
            switch run[index] {
            case .idle: break
            case .starting, .oneShot: result.append((key, .running))
            case .waiting: if let payload = waiting[index] { result.append((key, .waitingToStart(payload))) }
            case .channel: result.append((key, .openChannel))
            }
            if case .some = deliverTimer[index] {
                var delivery: ChannelDelivery?
                if let live = sinks[index] { delivery = live.delivery }
                result.append((key, .pendingDelivery(delivery)))
            }
            if case .some = settleTimer[index] { result.append((key, .settling)) }
        }
        return result
    }
}

extension AnyHashableSendable {
    /// `self == other`, as a method: called through optional chaining on a stored key, it reads
    /// the key in place.
    @inlinable @inline(__always)
    func isSameKey(as other: AnyHashableSendable) -> Bool { self == other }
}
