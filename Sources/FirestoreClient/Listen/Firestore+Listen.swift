import FirestorePlatform
import FirestoreWire

extension Firestore {
  /// The error the Listen stream of this instance is down with: the one that ended its
  /// last session, while no session since has heard from the server; `nil` before any
  /// failure and again once the server answers.
  ///
  /// As in the official SDKs, a stream failure (an unreachable host, a refused certificate,
  /// a handshake the server answers with an error status) does not end any listener: the
  /// stream is opened again with backoff and listeners meanwhile see snapshots from the
  /// cache. Only a target the server removes with a cause (such as `permissionDenied` from
  /// security rules) fails its listener. The official SDKs only log this failure ("could not
  /// reach the backend"); it is here for a caller that wants to say why nothing came.
  package var listenStreamError: FirestoreError? {
    get async { await listenManager.streamError }
  }

  /// What a running listener hands on.
  enum ListenEvent<T: Sendable>: Sendable {
    /// A snapshot.
    case snapshot(T)
    /// The error that ended the listener.
    case failed(any Error)
    /// The listener ended without an error (the instance was terminated).
    case ended
  }

  /// Starts a listener of target `kind`, each snapshot rendered by `render` and handed to
  /// `deliver`, and returns what stops it (calling it more than once does nothing).
  ///
  /// The listener's view lives in the ``LocalStore``: it may deliver a first snapshot from
  /// the cache at once, shows this client's pending writes, and (unless `options` say it
  /// reads the cache only) is fed every server snapshot of the target. `deliver` is called
  /// under the store's lock, in order, so it must only hand the event on. Nothing is sent
  /// until this is called; an invalid target fails at once. After a failure or the end,
  /// `deliver` is not called again and the target and the view are removed.
  func startListen<T: Sendable>(
    _ kind: Result<Target.Kind, FirestoreError>, view viewQuery: ViewQuery?, options: SnapshotListenOptions,
    render: @escaping @Sendable (ViewSnapshot) throws -> T, deliver: @escaping @Sendable (ListenEvent<T>) -> Void
  ) -> @Sendable () -> Void {
    let target: Target.Kind
    let view: ViewQuery
    do {
      try checkUsable()
      target = try kind.get()
      guard let viewQuery else { throw FirestoreError(.internal, "listen target without a view") }
      view = viewQuery
    } catch {
      deliver(.failed(error))
      return {}
    }
    let store = localStore
    let manager = listenManager
    let handle = ListenHandle()
    let ended = Locked(false)
    let viewID = Locked<Int?>(nil)
    let listenID = nextListenID.withLock { id in
      id += 1
      return id
    }
    let active = activeListens
    // Ends the listener once: the event (if any) goes out first, then the view and the
    // target go, not inline: this can run inside the view's own delivery, under the
    // store's lock.
    let finish: @Sendable (ListenEvent<T>?) -> Void = { event in
      let first = ended.withLock { ended in
        defer { ended = true }
        return !ended
      }
      guard first else { return }
      if let event { deliver(event) }
      active.withLock { $0[listenID] = nil }
      let targetID = handle.cancel()
      Task {
        if let id = viewID.withLock({ $0 }) { store.removeView(id) }
        if let targetID { await manager.unlisten(targetID) }
      }
    }
    active.withLock { $0[listenID] = { finish(.ended) } }
    writePipeline.followCurrentUser()
    let id = store.addView(view, source: options.source, includeMetadataChanges: options.includeMetadataChanges) { snapshot in
      guard !ended.withLock({ $0 }) else { return }
      do {
        deliver(.snapshot(try render(snapshot)))
      } catch {
        finish(.failed(error))
      }
    }
    viewID.withLock { $0 = id }
    // A listener that ended during its first delivery has its view removed now.
    if ended.withLock({ $0 }) { Task { store.removeView(id) } }
    guard options.source == .default else { return { finish(nil) } }
    let settings = rest.settings
    let database = databaseName
    Task {
      // A listen of these documents that ended may be resumed from where it was, when the
      // cache still holds what it held. A projection's partial documents are not cached,
      // so it never resumes.
      var isProjection = false
      if case .query(_, let query) = target { isProjection = query.select != nil }
      let point = await manager.resumePoint(for: target)
      let resume = point.flatMap { point in store.cachedDocuments(atLeast: point.versions).map { (point.token, $0) } }
      let targetID = await manager.listen(
        target, resumingFrom: resume, leavesResumePoint: !isProjection, outOfSync: { store.viewOutOfSync(id) },
        settings: settings, database: database
      ) { result in
        switch result {
        case .success(let snapshot): store.applyWatch(id, snapshot)
        case .failure(let error): finish(.failed(error))
        }
      }
      if handle.register(targetID) { await manager.unlisten(targetID) }
    }
    return { finish(nil) }
  }

  /// A stream of a listener's snapshots (see ``startListen(_:view:options:render:deliver:)``).
  /// Ending the stream (cancellation, the iterator going away, or an error) stops the listener.
  func listenStream<T: Sendable>(
    _ kind: Result<Target.Kind, FirestoreError>, view: ViewQuery?, options: SnapshotListenOptions,
    render: @escaping @Sendable (ViewSnapshot) throws -> T
  ) -> AsyncThrowingStream<T, any Error> {
    let (stream, continuation) = AsyncThrowingStream<T, any Error>.makeStream()
    let stop = startListen(kind, view: view, options: options, render: render) { event in
      switch event {
      case .snapshot(let value): continuation.yield(value)
      case .failed(let error): continuation.finish(throwing: error)
      case .ended: continuation.finish()
      }
    }
    continuation.onTermination = { _ in stop() }
    return stream
  }

  /// Calls `listener` on ``callbackQueue`` with each snapshot of a listener (see
  /// ``startListen(_:view:options:render:deliver:)``), or once with the error that ends it,
  /// until the registration is removed.
  func listenWithCallback<T: Sendable>(
    _ kind: Result<Target.Kind, FirestoreError>, view: ViewQuery?, options: SnapshotListenOptions,
    render: @escaping @Sendable (ViewSnapshot) throws -> T, listener: @escaping (T?, (any Error)?) -> Void
  ) -> ListenerRegistration {
    let registration = ListenerRegistration()
    let callback = UncheckedCallback<(T?, (any Error)?)> { listener($0.0, $0.1) }
    let queue = callbackQueue
    let stop = startListen(kind, view: view, options: options, render: render) { event in
      // Queued now, under the store's lock, so callbacks keep the order of events and come
      // before the snapshots-in-sync event of their round.
      queue.async {
        guard !registration.isRemoved else { return }
        switch event {
        case .snapshot(let value): callback.call((value, nil))
        case .failed(let error): callback.call((nil, error))
        case .ended: break
        }
      }
    }
    registration.setOnRemove(stop)
    return registration
  }
}
