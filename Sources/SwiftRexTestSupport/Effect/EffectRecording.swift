import SwiftRex
import Synchronization

/// The result of subscribing every component of an effect, in component order, outside any Store.
///
/// It records each ``SwiftRex/DispatchedAction`` sent (synchronously during subscription, or later from
/// another thread) and each completion, and keeps the subscription tokens alive until ``cancel()``
/// or deinit. Scheduling is ignored: every component is subscribed at once, as if `.immediately`.
/// A channel component opens its channel (and receives its value when it delivers on open); a
/// pipe-only broadcast and a cancel-only sentinel just complete.
public final class EffectRecording<Action: Sendable>: Sendable {
    private let log = Mutex<(actions: [DispatchedAction<Action>], completions: Int)>(([], 0))
    private let tokens = Mutex<[SubscriptionToken]>([])

    /// Subscribes each component of `effect` in order.
    public init(_ effect: Effect<Action>) {
        effect.forEachComponent { component in
            let token = component.subscribe(
                send: { [weak self] action in self?.log.withLock { $0.actions.append(action) } },
                complete: { [weak self] in self?.log.withLock { $0.completions += 1 } }
            )
            tokens.withLock { $0.append(token) }
        }
    }

    /// Every action sent so far, with its source, in the order it was sent.
    public var actions: [DispatchedAction<Action>] { log.withLock { $0.actions } }

    /// The actions sent so far, without their sources.
    public var actionValues: [Action] { actions.map(\.action) }

    /// How many times a component called `complete`.
    public var completions: Int { log.withLock { $0.completions } }

    /// Cancels every subscription, in component order. Idempotent.
    public func cancel() {
        let all = tokens.withLock { tokens in
            defer { tokens.removeAll() }
            return tokens
        }
        for token in all { token.cancel() }
    }
}

extension Effect {
    /// Subscribes every component in order and returns the recording (tokens stay alive until it is
    /// cancelled or released).
    public func record() -> EffectRecording<Action> {
        EffectRecording(self)
    }

    /// The actions the components send synchronously when subscribed in component order — the
    /// effect half of observational equality (<doc:Composition#Observational-equality-and-the-laws>). Every subscription is cancelled before
    /// this returns.
    public func emittedActions() -> [DispatchedAction<Action>] {
        let recording = record()
        recording.cancel()
        return recording.actions
    }

    /// ``emittedActions()`` without the sources.
    public func emittedActionValues() -> [Action] {
        emittedActions().map(\.action)
    }
}
