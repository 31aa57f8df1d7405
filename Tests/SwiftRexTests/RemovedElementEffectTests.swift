@_spi(Testing) import SwiftRex
import SwiftRexTestSupport
import Testing

/// A removed collection element takes its one-shot effects with it: running subscriptions are
/// cancelled (exactly once), pending debounced or delayed starts never fire, and the other
/// elements' effects carry on.
@MainActor
@Suite struct RemovedElementEffectTests {
    typealias F = CoreFixtures

    struct Task: Identifiable, Sendable, Equatable {
        var id: Int
        var done = 0
        var subtasks: [Task] = []
    }

    indirect enum TaskAction: Sendable, Equatable {
        case start, startAnonymous, schedule, finished
        case sub(ElementAction<Int, TaskAction>)
    }

    enum Action: Sendable, Equatable {
        case task(ElementAction<Int, TaskAction>)
        case remove(Int)
        case removeSubtask(Int, Int)
        case clear
        case other
    }

    struct State: Sendable, Equatable {
        var tasks: [Task] = []
        var archive: [Task]? = []
    }

    struct Environment: Sendable {
        var clock: ManualClock
    }

    static let taskPrism = Prism<Action, ElementAction<Int, TaskAction>>(
        preview: { if case .task(let action) = $0 { action } else { nil } }, review: Action.task)
    static let subPrism = Prism<TaskAction, ElementAction<Int, TaskAction>>(
        preview: { if case .sub(let action) = $0 { action } else { nil } }, review: TaskAction.sub)

    /// A task's feature: `start` runs a keyed effect that never completes on its own,
    /// `startAnonymous` an id-less one, `schedule` a debounced effect on the clock.
    static func task(cancels: F.Counter, fired: F.Counter) -> Behavior<TaskAction, Task, Environment> {
        Behavior<TaskAction, Task, Environment>
            .reduce { action, task in if action == .finished { task.done += 1 } }
            .produce { action, _ in
                switch action {
                case .start:
                    return Producer { _ in .subscribe(scheduling: .keyed(id: "work")) { _, _ in SubscriptionToken { cancels.increment() } } }
                case .startAnonymous:
                    return Producer { _ in .subscribe { _, _ in SubscriptionToken { cancels.increment() } } }
                case .schedule:
                    return Producer { _ in
                        .subscribe(scheduling: .debounce(id: "later", delay: .seconds(1))) { send, complete in
                            fired.increment()
                            send(DispatchedAction(.finished))
                            complete()
                            return .empty
                        }
                    }
                case .finished, .sub:
                    return .doNothing
                }
            }
    }

    static let admin = Behavior<Action, State, Environment>.reduce { action, state in
        switch action {
        case .remove(let id): state.tasks.removeAll { $0.id == id }
        case .removeSubtask(let parent, let id):
            if let index = state.tasks.firstIndex(where: { $0.id == parent }) { state.tasks[index].subtasks.removeAll { $0.id == id } }
        case .clear: state.archive = nil
        case .task, .other: break
        }
    }

    func makeStore(_ tasks: [Task], cancels: F.Counter, fired: F.Counter, clock: ManualClock = ManualClock()) -> Store<Action, State, Environment> {
        let feature = Self.task(cancels: cancels, fired: fired)
        let nested = feature.liftCollection(.action(Self.subPrism).state(\Task.subtasks), site: "subtasks")
        let lifted = (feature <> nested).liftCollection(.action(Self.taskPrism).state(\State.tasks), site: "tasks")
        return Store(initial: State(tasks: tasks), behavior: lifted <> Self.admin, environment: Environment(clock: clock), clock: { $0.clock })
    }

    @Test func removingAnElementCancelsItsRunningEffectsAndOnlyItsOwn() {
        let cancels = F.Counter()
        let store = makeStore([Task(id: 1), Task(id: 2)], cancels: cancels, fired: F.Counter())
        store.dispatch(.task(ElementAction(1, action: .start)))
        store.dispatch(.task(ElementAction(1, action: .startAnonymous)))
        store.dispatch(.task(ElementAction(2, action: .start)))
        #expect(store.registeredEffectCount == 3)

        store.dispatch(.other)
        #expect(cancels.value == 0)

        store.dispatch(.remove(1))
        #expect(cancels.value == 2)
        #expect(store.registeredEffectCount == 1)

        store.dispatch(.remove(1))
        #expect(cancels.value == 2)
    }

    @Test func aPendingDebouncedEffectOfARemovedElementNeverFires() {
        let fired = F.Counter()
        let clock = ManualClock()
        let store = makeStore([Task(id: 1), Task(id: 2)], cancels: F.Counter(), fired: fired, clock: clock)
        store.dispatch(.task(ElementAction(1, action: .schedule)))
        store.dispatch(.task(ElementAction(2, action: .schedule)))
        store.dispatch(.remove(1))
        clock.advance(by: .seconds(2))
        #expect(fired.value == 1)
    }

    @Test func removingAParentElementCancelsItsNestedElementsEffects() {
        let cancels = F.Counter()
        let store = makeStore([Task(id: 1, subtasks: [Task(id: 10), Task(id: 11)]), Task(id: 2)], cancels: cancels, fired: F.Counter())
        store.dispatch(.task(ElementAction(1, action: .sub(ElementAction(10, action: .start)))))
        store.dispatch(.task(ElementAction(1, action: .sub(ElementAction(11, action: .start)))))
        store.dispatch(.task(ElementAction(2, action: .start)))

        store.dispatch(.removeSubtask(1, 10))
        #expect(cancels.value == 1)

        store.dispatch(.remove(1))
        #expect(cancels.value == 2)
        #expect(store.registeredEffectCount == 1)
    }

    @Test func aCollectionInsideAnOptionalSliceThatBecomesNilCancelsItsElementsEffects() {
        let cancels = F.Counter()
        let archived = Self.task(cancels: cancels, fired: F.Counter())
            .liftCollection(.action(Self.taskPrism).state(\[Task].self), site: "archive")
            .lift(.state(\State.archive))
        let store = Store(
            initial: State(archive: [Task(id: 5)]), behavior: archived <> Self.admin,
            environment: Environment(clock: ManualClock()), clock: { $0.clock })
        store.dispatch(.task(ElementAction(5, action: .start)))
        #expect(cancels.value == 0)
        store.dispatch(.clear)
        #expect(cancels.value == 1)
        #expect(store.registeredEffectCount == 0)
    }
}
