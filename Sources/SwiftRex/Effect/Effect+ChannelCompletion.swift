extension Effect {
    /// Opens a channel under `scheduling.id` whose values are consumed as an `AsyncStream`, with a
    /// `complete` the consumer may call to close the channel before it returns.
    ///
    /// `value` and every value delivered later into the live channel is yielded into the stream,
    /// buffered by `bufferingPolicy`; `consume` runs in a `Task`. Calling `complete` finishes the
    /// stream, drops every later send and completes the channel at once (the engine forgets it, so
    /// the next `channel` under the id opens a new one); returning from `consume` does the same if
    /// `complete` was not called. Either way it completes exactly once, and never after the channel
    /// was cancelled (cancelling finishes the stream, cancels the task and drops later sends). When
    /// `consume` throws, the channel closes the same way and the error is reported as a
    /// ``StoreDiagnostic/Kind/channelFailed`` diagnostic.
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
        consume:
            @escaping @Sendable (
                _ values: AsyncStream<Value>,
                _ send: Send<Action>,
                _ complete: @escaping @Sendable () -> Void
            ) async throws -> Void
    ) -> Effect {
        let source = ActionSource(file: file, function: function, line: line)
        let id = scheduling.id
        return channel(value: value, scheduling: scheduling, file: file, function: function, line: line) { send, complete in
            let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: bufferingPolicy)
            let target = ClosureSendTarget<Action>(send)
            let finish: @Sendable () -> Void = {
                continuation.finish()
                if target.finish() { complete() }
            }
            let task = Task<Void, any Error> { () async throws in
                if target.isRunning {
                    do {
                        try await consume(stream, Send(target: target), finish)
                    } catch {
                        if target.isRunning { reportChannelFailure(id: id, source: source, error: error, whileOpening: false) }
                    }
                }
                finish()
            }
            return ChannelHandler(
                receive: { continuation.yield($0) },
                cancel: {
                    target.cancel()
                    continuation.finish()
                    task.cancel()
                }
            )
        }
    }
}
