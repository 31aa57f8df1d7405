import LabCore

/// Every scenario of the lab, in run order. Add a family by adding its file
/// under `Scenarios/` and listing it here.
@MainActor
enum ScenarioRegistry {
    /// All scenarios.
    static var all: [Scenario] {
        BaselineScenarios.all
            + ReducerScenarios.all
            + EndoMutScenarios.all
            + BehaviorScenarios.all
            + StackScenarios.all
            + StackMatrixScenarios.all
            + StoreScenarios.all
            + ObservationScenarios.all
            + ReconcileScenarios.all
            + EffectScenarios.all
            + DebounceScenarios.all
            + LiftScenarios.all
            + NestedLiftScenarios.all
            + SupervisionScenarios.all
            + SpellingScenarios.all
    }
}
