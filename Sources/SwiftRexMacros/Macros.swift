@_exported import SwiftRex

#if Macros || PrebuiltMacroPlugin
/// Generates, for every case of the enum it is attached to, an optional property named after the
/// case (so `\AppAction.counter` is a case key path, accepted by every action lane) and a prism in
/// `AppAction.prism.counter`, and conforms the enum to ``SwiftRex/Prismatic``. Unless the enum
/// declares its own `caseIndex`, it also numbers the cases (``SwiftRex/CaseIndexable``) and builds
/// each prism for its case, so a Store hands each action only to the features lifted through its
/// case (fifty features side by side cost about one).
///
/// ```swift
/// @Prisms
/// enum AppAction: Sendable {
///     case counter(CounterAction)
///     case reset
/// }
///
/// counter.lift(action: \AppAction.counter, state: \AppState.counter)
/// counter.lift(.action(AppAction.prism.counter).state(\.counter))
/// counter.lift(.action(AppAction.lane.counter).state(\.counter))
/// ```
///
/// It also generates an action lane type per case, in `AppAction.lane.counter`: its extract is a
/// `switch` the compiler sees, where a prism holds closures, so a lift through it is specialised
/// for the case and calls no closure to extract it (the lab compares the two:
/// `lift.payload.staticLane` and `lift.payload`).
///
/// A case without payload gets a `Void` prism (`\AppAction.reset`); a case with several values gets
/// a tuple of them, labels kept. Generic enums are not supported (a diagnostic says so), nor are
/// two cases sharing a base name.
@attached(member, names: named(AllPrisms), named(prism), named(AllLanes), named(lane), named(caseIndex), arbitrary)
@attached(extension, conformances: Prismatic, CaseIndexable)
public macro Prisms() = #externalMacro(module: "SwiftRexMacrosPlugin", type: "PrismsMacro")

/// Generates a lens per stored property of the struct it is attached to, in `AppState.lens.counter`.
///
/// ```swift
/// @Lenses
/// struct AppState: Sendable {
///     let session: Session        // a `let` gets a lens too
///     var counter = 0
/// }
///
/// feature.lift(.action(\.session).state(AppState.lens.session))
/// ```
///
/// Lenses mutate in place. A `let` with an initial value is a constant and gets no lens; generic
/// structs are not supported.
@attached(member, names: named(AllLenses), named(lens))
public macro Lenses() = #externalMacro(module: "SwiftRexMacrosPlugin", type: "LensesMacro")
#endif
