import FirestoreEngine
import FirestoreWire

/// Listens to each limbo document of the ``LocalStore`` alone, as the Apple SDK resolves
/// its limbo documents: a document a listener was shown that its query's results now leave
/// out without the server having removed it. The document's own snapshots tell the store
/// whether it exists; the listen ends when no view holds the document in limbo.
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

  init(store: LocalStore, manager: ListenManager, settings: ClientConfiguration, database: String) {
    self.store = store
    self.manager = manager
    self.settings = settings
    self.database = database
  }

  /// Starts and stops listens until they match the store's limbo documents. Calls may come
  /// in any order: each one reads the store's set as it is now.
  func reconcile() async {
    let wanted = store.limboNames
    for (name, entry) in listening where !wanted.contains(name) {
      listening[name] = nil
      if let id = entry.targetID { await manager.unlisten(id) }
    }
    for name in wanted.sorted() where listening[name] == nil && listening.count < Self.maxListens {
      starts += 1
      let start = starts
      listening[name] = (start, nil)
      let store = store
      let id = await manager.listen(.documents([name]), settings: settings, database: database) { result in
        switch result {
        case .success(let snapshot): store.resolveLimbo(name, snapshot.documents.first)
        // The server refused the document's listen: as the Apple SDK, taken for a deletion.
        case .failure: store.resolveLimbo(name, nil)
        }
      }
      // Stopped (and maybe started again) while it started: this one goes at once.
      if listening[name]?.start == start { listening[name]?.targetID = id } else { await manager.unlisten(id) }
    }
  }
}
