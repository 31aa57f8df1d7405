import Foundation

/// Runs `body` on the main actor: at once when already on it, else after a hop.
internal func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if isOnMainActor() {
        MainActor.assumeIsolated(body)
    } else {
        Task { @MainActor in body() }
    }
}

/// A tag on the main dispatch queue, set once: the main actor's work runs on that queue.
private let mainQueueTag: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Whether the caller runs on the main actor. The main thread is not enough to tell: once a
/// process parks its main thread in `dispatchMain()` (an async `main` on Linux does), the main
/// queue, and with it every main-actor job, is drained by whichever worker thread libdispatch
/// picks, where `Thread.isMainThread` is `false`.
internal func isOnMainActor() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueTag) != nil
}
