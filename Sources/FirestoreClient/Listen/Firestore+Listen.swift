import FirestoreWire

extension Firestore {
  /// A stream of listen results for `kind`, mapped by `transform`.
  ///
  /// Nothing is sent until the stream is created; an invalid target fails the stream at once.
  /// Ending the stream (cancellation, the iterator going away, or an error) removes the target.
  func listenStream<T: Sendable>(
    _ kind: Result<Target.Kind, FirestoreError>, transform: @escaping @Sendable (WatchSnapshot) throws -> T
  ) -> AsyncThrowingStream<T, any Error> {
    let (stream, continuation) = AsyncThrowingStream<T, any Error>.makeStream()
    let target: Target.Kind
    do {
      if let error = rest.configurationError { throw error }
      target = try kind.get()
    } catch {
      continuation.finish(throwing: error)
      return stream
    }
    let handle = ListenHandle()
    let manager = listenManager
    continuation.onTermination = { _ in
      if let id = handle.cancel() { Task { await manager.unlisten(id) } }
    }
    let settings = self.settings
    let database = databaseName
    Task {
      let id = await manager.listen(target, settings: settings, database: database) { result in
        switch result {
        case .success(let snapshot):
          do {
            continuation.yield(try transform(snapshot))
          } catch {
            continuation.finish(throwing: error)
          }
        case .failure(let error):
          continuation.finish(throwing: error)
        }
      }
      if handle.register(id) { await manager.unlisten(id) }
    }
    return stream
  }

  /// Calls `listener` with every element of `sequence` until the registration is removed or
  /// the sequence fails (then once with the error).
  func addListener<S: AsyncSequence & Sendable, T>(
    _ sequence: S, _ listener: @escaping @Sendable (T?, (any Error)?) -> Void
  ) -> ListenerRegistration where S.Element == T {
    let registration = ListenerRegistration()
    let task = Task {
      do {
        for try await element in sequence {
          guard !registration.isRemoved else { return }
          listener(element, nil)
        }
      } catch {
        guard !registration.isRemoved else { return }
        listener(nil, error)
      }
    }
    registration.setOnRemove { task.cancel() }
    return registration
  }
}
