extension Effect {
    /// Opens a channel under `scheduling.id` whose values are consumed as an `AsyncStream`, with a
    /// `complete` the consumer may call to close the channel before it returns.
    ///
    /// `value` and every value delivered later into the live channel is yielded into the stream,
    /// buffered by `bufferingPolicy`; `consume` runs in a `Task`. Calling `complete` finishes the
    /// stream, drops every later send and completes the channel at once (the engine forgets it, so
    /// the next `channel` under the id opens a new one); returning from `consume` does the same if
    /// `complete` was not called. Either way it completes exactly once, and never after the channel
    /// was cancelled (cancelling finishes the stream, cancels the task and drops later sends).
    ///
    /// - Important: give `scheduling` an id, as for every channel.
    ///
    /// ```swift
    /// .channel(value: upload, scheduling: .keyed(id: "upload")) { chunks, send, complete in
    ///     for await chunk in chunks {
    ///         send(.sent(chunk.count))
    ///         if chunk.isLast { complete() }     // done: the channel closes now
    ///     }
    /// }
    /// ```
    public static func channel<Value: Sendable>(
        value: Value,
        scheduling: EffectScheduling,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded,
        file: String = #fileID, function: String = #function, line: UInt = #line,
        consume: @escaping @Sendable (
            _ values: AsyncStream<Value>,
            _ send: Send<Action>,
            _ complete: @escaping @Sendable () -> Void
        ) async -> Void
    ) -> Effect {
        channel(value: value, scheduling: scheduling, file: file, function: function, line: line) { send, complete in
            let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: bufferingPolicy)
            let run = EffectRun()
            let sender = Send<Action>(run: run, deliver: send)
            let finish: @Sendable () -> Void = {
                continuation.finish()
                if run.finish() { complete() }
            }
            let task = Task {
                if run.isRunning { await consume(stream, sender, finish) }
                finish()
            }
            return ChannelHandler(
                receive: { continuation.yield($0) },
                cancel: {
                    run.cancel()
                    continuation.finish()
                    task.cancel()
                }
            )
        }
    }
}
