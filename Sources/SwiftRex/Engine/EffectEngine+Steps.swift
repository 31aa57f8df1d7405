extension EffectEngine {
    /// Performs a machine step: its cancels, in order, then what it starts, reporting the result
    /// back to the machine. Effect code run here that calls the engine is deferred (the engine is
    /// busy), so the machine hears the report before anything else.
    @inlinable
    func perform(_ step: consuming Step, now: Duration) {
        switch consume step {
        case .cancel(let cancels):
            cancelTokens(cancels)
        case .subscribe(let cancels, let payload, let key, let slot, let generation):
            cancelTokens(cancels)
            let run = subscribe(payload, key: key, generation: generation)
            machine.subscribed(slot: slot, generation: generation, run: run)
        case .open(let cancels, let payload, let key, let slot, let generation, let traits):
            cancelTokens(cancels)
            let channel = open(payload, key: key, generation: generation)
            machine.opened(slot: slot, generation: generation, channel: channel, traits: traits, now: now)
        case .deliver(let cancels, let payload, let sink):
            cancelTokens(cancels)
            if let value = payload.channel?.value { sink(value) }
        case .arm(let cancels, let deadline):
            cancelTokens(cancels)
            let token = clock.startTimer(deadline) { [weak self] in self?.wake() }
            machine.wakeArmed(token)
        }
    }

    /// Cancels the tokens a machine event took out of the registry, in order.
    @inlinable
    func cancelTokens(_ cancels: borrowing EffectCancellations) {
        if cancels.isEmpty { return }
        cancels.first?.cancelRun()
        cancels.second?.cancelRun()
        cancels.third?.cancelRun()
    }

    /// Starts a one-shot run; `nil` when it completed while starting (nothing stays registered).
    @inlinable
    func subscribe(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (any EffectCancellable)? {
        switch payload.work {
        case .task(let work):
            let run = EffectTaskRun(work: work, outlet: outlet, depth: payload.depth, key: key, generation: generation)
            run.startFromMainActor()
            return run
        case .just(let action):
            outlet.letter(action, payload.depth)
            return nil
        case .sequence(let actions):
            for action in actions { outlet.letter(action, payload.depth) }
            return nil
        case .subscribe(let subscribe):
            // A component with a channel payload is opened, never subscribed.
            let ticket = EffectRun(key: key, generation: generation)
            let token = subscribe(sender(depth: payload.depth), completion(ticket))
            return ticket.register() ? token : nil
        case .cancelOnly:
            return nil
        }
    }

    /// Opens a channel (delivering its value on open when it says so); `nil` for a pipe-only
    /// payload, or a channel that completed (or whose body threw) while opening. Inlinable for the
    /// same reason as `openChannel`.
    @inlinable
    func open(_ payload: Payload, key: AnyHashableSendable, generation: UInt64) -> (token: SubscriptionToken, sink: @Sendable (any Sendable) -> Void)?
    {
        guard let channel = payload.channel, let start = channel.start else { return nil }
        let ticket = EffectRun(key: key, generation: generation)
        let opened = start(channel.value, sender(depth: payload.depth), completion(ticket))
        guard ticket.register() else {
            opened.token.cancel()
            return nil
        }
        return opened
    }

    @usableFromInline
    func sender(depth: Int) -> @Sendable (DispatchedAction<Action>) -> Void {
        let post = outlet.letter
        return { post($0, depth) }
    }

    /// A completion callback safe to call from any thread, any number of times (only the first
    /// counts): it posts `ticket` through the outlet, after the actions sent before it, unless the
    /// subscription has not returned yet, in which case the engine sees the end itself.
    @usableFromInline
    func completion(_ ticket: EffectRun) -> @Sendable () -> Void {
        let post = outlet.finished
        return { if ticket.finish(), !ticket.endWhileOpening() { post(ticket) } }
    }
}
