import FirestoreWire

extension Firestore {
  /// Stops all use of the network until ``enableNetwork()``, as the Apple SDK's does.
  ///
  /// While the network is disabled, writes are queued and shown to listeners at once
  /// (``SnapshotMetadata/hasPendingWrites``); listeners keep delivering from the cache, marked
  /// ``SnapshotMetadata/isFromCache``; ``FirestoreSource/default`` reads answer from the
  /// cache; ``FirestoreSource/server`` reads, aggregations and transactions fail at once with
  /// `unavailable`. Requests already under way finish.
  ///
  /// ```swift
  /// try await db.disableNetwork()
  /// db.document("notes/today").setData(["text": "written offline"])  // queued
  /// try await db.enableNetwork()                                       // sent now
  /// ```
  public func disableNetwork() async throws {
    try checkUsable()
    network.setMode(.disabled)
    writePipeline.setNetworkEnabled(false)
    localStore.listenConnectionLost()
    await listenManager.setNetworkEnabled(false)
  }

  /// Uses the network again after ``disableNetwork()``: queued writes are sent, in order,
  /// and listeners reconnect and come back in sync with the server.
  public func enableNetwork() async throws {
    try checkUsable()
    network.setMode(.enabled)
    writePipeline.setNetworkEnabled(true)
    await listenManager.setNetworkEnabled(true)
  }

  /// Returns when every write queued before the call is settled: applied by the server, or
  /// refused by it (writes queued by a previous run included; later writes are not waited
  /// for). While the server cannot be reached, it waits.
  ///
  /// ```swift
  /// db.collection("logs").addDocument(data: ["at": FieldValue.serverTimestamp()])
  /// try await db.waitForPendingWrites()
  /// ```
  ///
  /// - Throws: `cancelled` when the instance is terminated first.
  public func waitForPendingWrites() async throws {
    try checkUsable()
    try await writePipeline.waitForPendingWrites()
  }

  /// Ends this instance: listeners stop (an `AsyncSequence` of snapshots ends), queued
  /// writes stop being sent, and every later call fails with `failedPrecondition`, except
  /// ``clearPersistence()``. As in the Apple SDK, queued writes are not lost with a
  /// persistent cache: the next instance on the same directory sends them. Callers still
  /// waiting for a write get `cancelled`. The connections the transport keeps for reuse
  /// are closed (once no other instance's request runs on a shared transport).
  ///
  /// ``Firestore/firestore()`` makes a new instance after this.
  public func terminate() async throws {
    if terminateUnstarted() {
      Self.forgetShared(self)
      return
    }
    guard network.mode != .terminated else { return }
    network.setMode(.terminated)
    Self.forgetShared(self)
    for stop in activeListens.withLock({ Array($0.values) }) { stop() }
    parts.userFollower?.cancel()
    await parts.limboResolver.shutdown()
    await listenManager.shutdown()
    await writePipeline.close()
    localStore.close()
    #if canImport(CCurl)
      // The connections this instance opened are not kept open after it.
      await (configuration.effectiveTransport as? CurlTransport)?.closeIdleConnections()
    #endif
  }

  /// Deletes the persistent cache file of this instance's project and database: cached
  /// documents and queued writes. As in the Apple SDK, only an instance that has not
  /// started yet, or was terminated (``terminate()``), may do this; it is meant for tests
  /// and for signing a user out.
  ///
  /// - Throws: `failedPrecondition` when the instance is running.
  public func clearPersistence() async throws {
    guard !isStarted || network.mode == .terminated else {
      throw FirestoreError(
        .failedPrecondition, "clearPersistence() needs a Firestore instance that has not started or was terminated: call terminate() first")
    }
    if let path = cacheFilePath { SQLiteCacheStorage.remove(path: path) }
  }

  /// Calls `listener` on ``FirestoreSettings/dispatchQueue`` once at once and then every
  /// time all snapshot listeners are in sync with each other: after every listener that a
  /// change (a write of this client, or a server message) concerned has been called.
  ///
  /// ```swift
  /// let registration = db.addSnapshotsInSyncListener { print("all listeners are consistent") }
  /// ```
  @discardableResult
  public func addSnapshotsInSyncListener(_ listener: @escaping () -> Void) -> ListenerRegistration {
    let registration = ListenerRegistration()
    let callback = UncheckedCallback<Void> { listener() }
    let queue = callbackQueue
    let fire: @Sendable () -> Void = {
      queue.async { if !registration.isRemoved { callback.call(()) } }
    }
    let store = localStore
    let id = store.addSyncListener(fire)
    registration.setOnRemove { store.removeSyncListener(id) }
    fire()
    return registration
  }

  /// The snapshots-in-sync events as an `AsyncSequence` (see
  /// ``addSnapshotsInSyncListener(_:)``): an element at once, then one whenever all
  /// listeners are in sync with each other. Leaving the loop stops it.
  public var snapshotsInSync: AsyncStream<Void> {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let store = localStore
    let id = store.addSyncListener { continuation.yield() }
    continuation.onTermination = { _ in store.removeSyncListener(id) }
    continuation.yield()
    return stream
  }
}
