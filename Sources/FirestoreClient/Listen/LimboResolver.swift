import FirestoreEngine
import FirestoreWire

/// Listens to each limbo document of the ``LocalStore`` alone, as the Apple SDK resolves
/// its limbo documents: a document a listener was shown that its query's results now leave
/// out without the server having removed it. The document's own snapshots tell the store
/// whether it exists. A listen ends when no view holds its document in limbo any more, or
/// when it said the document does not exist (a document that comes back into limbo is
/// asked about again).
///
/// At most ``maxListens`` are open at once (the Apple SDK's limit on concurrent limbo
/// resolutions): a query whose results lost thousands of documents at once does not open
/// thousands of targets. The others wait, in name order, for a listen to end.
actor LimboResolver {
  /// How many limbo documents are listened to at once.
  static let maxListens = 100

  private let store: LocalStore
  private let manager: ListenManager
  private let settings: ClientConfiguration
  private let database: String
  /// The documents listened to (or about to be): which start it was, and its target ID
  /// once known.
  private var listening: [String: (start: Int, targetID: Int32?)] = [:]
  private var starts = 0
  /// Whether a ``reconcile()`` is under way, and whether it must look again when done.
  private var isReconciling = false
  private var isOutdated = false
  private var isShutDown = false

  init(store: LocalStore, manager: ListenManager, settings: ClientConfiguration, database: String) {
    self.store = store
    self.manager = manager
    self.settings = settings
    self.database = database
  }

  /// Starts and stops listens until they match the store's limbo documents. One pass runs
  /// at a time; a call during it makes it look again at the store's set as it is then.
  func reconcile() async {
    guard !isReconciling else {
      isOutdated = true
      return
    }
    isReconciling = true
    defer { isReconciling = false }
    repeat {
      isOutdated = false
      await reconcileOnce()
    } while isOutdated
  }

  /// Ends every listen and starts none from now on (``Firestore/terminate()``).
  func shutdown() async {
    isShutDown = true
    let ended = listening.values.compactMap(\.targetID)
    listening = [:]
    for id in ended { await manager.unlisten(id) }
  }

  private func reconcileOnce() async {
    let wanted = isShutDown ? [] : store.limboNames
    for (name, entry) in listening where !wanted.contains(name) {
      listening[name] = nil
      if let id = entry.targetID { await manager.unlisten(id) }
    }
    for name in wanted.sorted() where listening[name] == nil && listening.count < Self.maxListens {
      // The set changed meanwhile: the next pass starts from the new one.
      if isOutdated || isShutDown { return }
      starts += 1
      let start = starts
      listening[name] = (start, nil)
      let store = store
      let id = await manager.listen(.documents([name]), settings: settings, database: database) { [weak self] result in
        switch result {
        case .success(let snapshot):
          store.resolveLimbo(name, snapshot.documents.first, readTime: snapshot.readTime)
          if snapshot.documents.isEmpty { Task { await self?.answered(name, start: start) } }
        case .failure:
          // Refused by the server: as the Apple SDK, taken for a deletion. No snapshot
          // round closes this one, so it closes it itself.
          store.resolveLimbo(name, nil)
          store.endListenRound()
          Task { await self?.answered(name, start: start) }
        }
      }
      // Stopped (and maybe started again) while it started: this one goes at once.
      if listening[name]?.start == start { listening[name]?.targetID = id } else { await manager.unlisten(id) }
    }
  }

  /// The listen of start `start` said its document does not exist: it has nothing more to
  /// say, so it ends, and the document is listened to afresh should it come back into limbo.
  private func answered(_ name: String, start: Int) async {
    guard let entry = listening[name], entry.start == start else { return }
    listening[name] = nil
    if let id = entry.targetID { await manager.unlisten(id) }
    await reconcile()
  }
}
