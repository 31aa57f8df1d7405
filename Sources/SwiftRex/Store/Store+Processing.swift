extension Store {
    /// Starts processing `action`; `false`, having queued it, when the Store is already
    /// processing one (it then runs in this turn, after the current action: FIFO, never nested).
    @inlinable
    @inline(__always)
    internal func begin(_ action: Action, source: borrowing ActionSource, depth: Int) -> Bool {
        if isProcessing {
            queue.append(Letter(action: DispatchedAction(action, dispatcher: copy source), depth: depth))
            return false
        }
        isProcessing = true
        return true
    }

    /// Ends processing: the actions queued meanwhile run, then the Store is idle.
    @inlinable
    @inline(__always)
    internal func end() {
        // `drainQueue` always leaves the queue reset (`end` 0), so a nonzero end means letters.
        if queue.end != 0 { drainQueue() }
        isProcessing = false
    }

    /// Runs the actions queued synchronously during processing, cutting off a runaway loop.
    /// Inlinable, so queued actions (those an observer dispatches, say) run specialised for the
    /// Store's types; not inlined, so the mailbox's drain keeps a small body.
    @inlinable
    @inline(never)
    internal func drainQueue() {
        var drained = 1
        // Each letter is moved out of the queue: a copy would retain what its action and source hold.
        while !queue.isEmpty {
            let letter = queue.removeFirst()
            if drained >= threshold {
                reportRunaway(.synchronous, count: drained + 1, letter: letter)
                break
            }
            drained += 1
            run(letter.action.action, source: letter.action.dispatcher, depth: letter.depth)
        }
        // Drops what a runaway cut left, and resets the queue to its storage's start.
        queue.removeAll()
    }

    /// Drains the mailbox (a later main-actor turn): effect and channel actions, in posting order,
    /// and the runs that ended (after the actions they sent).
    @inlinable
    internal func drainMailbox() {
        // The spare buffer (empty, with storage) is exchanged for the waiting entries.
        var entries = mailboxBuffer.take()
        mailbox.take(into: &entries)
        var reported = false
        // Each entry is moved out of the buffer: a copy would retain everything its action holds.
        while !entries.isEmpty {
            switch entries.removeFirst() {
            case .finished(let run): engine.finished(run)
            case .letter(let letter): deliver(consume letter, reported: &reported)
            }
        }
        entries.removeAll()
        mailboxBuffer = entries
    }

    /// Processes one drained letter, or drops it past the runaway threshold (reported once per
    /// drain). Its source is lent to the dispatch, not copied.
    @inlinable
    @inline(__always)
    internal func deliver(_ letter: consuming Letter<Action>, reported: inout Bool) {
        if letter.depth > threshold {
            if !reported { reportRunaway(.throughEffects, count: letter.depth, letter: letter) }
            reported = true
        } else if let interceptor = interceptEffectActions {
            interceptor(letter.action, letter.depth)
        } else {
            process(letter.action.action, source: letter.action.dispatcher, depth: letter.depth)
        }
    }

    @usableFromInline
    internal func reportRunaway(_ kind: StoreReentranceInfo.Kind, count: Int, letter: Letter<Action>) {
        onReentranceDetected(
            StoreReentranceInfo(
                kind: kind,
                drainedCount: count,
                threshold: threshold,
                source: letter.action.dispatcher,
                actionDescription: String(describing: letter.action.action)
            ))
    }
}
