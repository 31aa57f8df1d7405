extension Store {
    /// Keeps a producer phase 1 returned, unless it is `.doNothing` (the identity producer:
    /// running it would make an empty effect to schedule nothing): the first in `first`, the
    /// others in `producers`.
    @inlinable
    @inline(__always)
    internal func keep(_ producer: consuming Producer<Action, State, Environment>?, first: inout Producer<Action, State, Environment>?) {
        guard let producer = consume producer, !producer.isIdentity else { return }
        if first == nil { first = consume producer } else { producers.append(producer) }
    }

    /// Phases 3 and 4: every kept producer's effect resolved against the post-mutation state and
    /// scheduled, in order. The first producer is moved out of its variable and run by a consuming
    /// call, which releases it once: called as a borrow, it was copied, retained around the call
    /// and released twice.
    @inlinable
    @inline(__always)
    internal func scheduleProduced(_ firstProducer: consuming Producer<Action, State, Environment>?, depth: Int) {
        guard let reader = consume firstProducer else { return }
        if producers.isEmpty {
            schedule((consume reader).runConsumed(postContext), depth: depth)
        } else {
            scheduleProducers(first: reader, depth: depth)
        }
    }

    /// Phases 3 and 4 when a dispatch produced several effects: every reader runs against the
    /// post-mutation state before the first component is scheduled (out of line: the usual
    /// dispatch produces at most one).
    @inlinable
    @inline(never)
    internal func scheduleProducers(first: Producer<Action, State, Environment>, depth: Int) {
        effects.append(first.runReader(postContext))
        for producer in producers { effects.append(producer.runReader(postContext)) }
        producers.removeAll(keepingCapacity: true)
        for effect in effects { schedule(effect, depth: depth) }
        effects.removeAll(keepingCapacity: true)
    }

    /// Phase 4 for one effect: plain immediate actions go straight to the mailbox; everything else
    /// goes through the engine's registry.
    @inlinable
    internal func schedule(_ effect: consuming Effect<Action>, depth: Int) {
        // The action is consumed out of its binding: a bound payload is otherwise a copy (its
        // source's strings retained), the effect being destroyed only after the post.
        switch (consume effect).storage {
        case .immediate(.just(let action)):
            postEffectAction(consume action, depth: depth &+ 1)
        case .immediate(.task(let work)):
            engine.startAnonymousTask(work, depth: depth &+ 1)
        case .immediate(let work):
            schedule(Effect<Action>.Component(work: work, scheduling: .immediately), depth: depth)
        case .keyedTask(let work, let key, let exclusive):
            if engine.isBusy {
                schedule(Effect<Action>.keyedComponent(work, key: key, exclusive: exclusive), depth: depth)
            } else {
                engine.startKeyedTask(work, key: key, depth: depth &+ 1)
            }
        case .single(let component):
            if component.startsAtOnceAnonymously, case .just = component.work {
                // The usual answer, `Effect.just`: its action is moved out of the component and
                // into the mailbox, not copied out of it.
                if case .just(let action) = component.takeWork() { postEffectAction(action, depth: depth &+ 1) }
            } else if component.startsAtOnceAnonymously {
                // Moved on: a copy went through an outlined generic copy of the whole component
                // (and the effect's destroy through another).
                schedule(consume component, depth: depth)
            } else {
                // Straight to the engine: one frame less to move the component through.
                scheduleInEngine(consume component, depth: depth &+ 1)
            }
        case .many(let components): for component in components { schedule(component, depth: depth) }
        }
    }

    @inlinable
    internal func schedule(_ component: consuming Effect<Action>.Component, depth: Int) {
        if component.startsAtOnceAnonymously {
            switch component.work {
            case .just(let action):
                postEffectAction(action, depth: depth &+ 1)
                return
            case .sequence(let actions):
                for action in actions { postEffectAction(action, depth: depth &+ 1) }
                return
            case .task(let work):
                engine.startAnonymousTask(work, depth: depth &+ 1)
                return
            case .subscribe, .cancelOnly:
                break
            }
        }
        scheduleInEngine(consume component, depth: depth &+ 1)
    }

    /// Posts an effect action from the main actor into the mailbox (the first post of a burst
    /// schedules its drain), moving it in: a copy would retain what it holds (its source's
    /// strings) and release it again. While the engine holds deferred operations (effect code
    /// dispatching from inside one), the post waits behind them, so the effect's components keep
    /// their order.
    @inlinable
    @inline(__always)
    internal func postEffectAction(_ action: consuming DispatchedAction<Action>, depth: Int) {
        if engine.hasDeferred {
            engine.deferPost(action, depth: depth)
            return
        }
        mailbox.post(.letter(Letter(action: action, depth: depth)))
    }

    @usableFromInline
    internal func scheduleInEngine(_ component: consuming Effect<Action>.Component, depth: Int) {
        engine.schedule(consume component, depth: depth)
    }

    /// Phase 5 in full: every supervision's channels for the current state (at initialisation).
    @inlinable
    internal func reconcileAll() {
        guard let supervision else { return }
        supervision.reconcileAll(state: &storage, environment: environment, engine: engine, depth: 1)
    }

    /// Phase 5 after a mutation of `scope` by `action` reaching the segments in `mask`: nothing
    /// unless some supervision reads what it wrote; then only those segments, only the element
    /// it changed when sound. The state is handed over where it lies, never copied.
    @inlinable
    internal func reconcile(after scope: MutationScope, mask: UInt64, action: Action, depth: Int) {
        guard let supervision, supervision.reaches(mask) else { return }
        supervision.reconcile(
            after: scope, mask: mask, action: action, state: &storage, environment: environment, engine: engine, depth: depth + 1)
    }
}
