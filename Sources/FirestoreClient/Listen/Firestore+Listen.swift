import FirestoreWire

extension Firestore {
  /// A stream of a listener's snapshots for target `kind`, each rendered by `render`.
  ///
  /// The listener's view lives in the ``LocalStore``: it may deliver a first snapshot from
  /// the cache at once, shows this client's pending writes, and is fed every server
  /// snapshot of the target. Nothing is sent until the stream is created; an invalid target
  /// fails the stream at once. Ending the stream (cancellation, the iterator going away, or
  /// an error) removes the target and the view.
  func listenStream<T: Sendable>(
    _ kind: Result<Target.Kind, FirestoreError>, view viewQuery: ViewQuery?, includeMetadataChanges: Bool,
    render: @escaping @Sendable (ViewSnapshot) throws -> T
  ) -> AsyncThrowingStream<T, any Error> {
    let (stream, continuation) = AsyncThrowingStream<T, any Error>.makeStream()
    let target: Target.Kind
    let view: ViewQuery
    do {
      if let error = rest.configurationError { throw error }
      target = try kind.get()
      guard let viewQuery else { throw FirestoreError(.internal, "listen target without a view") }
      view = viewQuery
    } catch {
      continuation.finish(throwing: error)
      return stream
    }
    let store = localStore
    let viewID = store.addView(view, includeMetadataChanges: includeMetadataChanges) { snapshot in
      do {
        continuation.yield(try render(snapshot))
      } catch {
        continuation.finish(throwing: error)
      }
    }
    let handle = ListenHandle()
    let manager = listenManager
    continuation.onTermination = { _ in
      // Not inline: a stream can end inside the view's own delivery, under the store's lock.
      let id = handle.cancel()
      Task {
        store.removeView(viewID)
        if let id { await manager.unlisten(id) }
      }
    }
    let settings = self.settings
    let database = databaseName
    Task {
      let id = await manager.listen(target, settings: settings, database: database) { result in
        switch result {
        case .success(let snapshot):
          store.applyWatch(viewID, snapshot)
        case .failure(let error):
          store.removeView(viewID)
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
