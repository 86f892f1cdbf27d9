import Dispatch
import FirestorePlatform
import FirestoreWire
import Synchronization

/// A connection to one Firestore database: the entry point of the client.
///
/// Create one per database and share it; it is `Sendable` and keeps its HTTP connections
/// alive between calls.
///
/// ```swift
/// // Honours FIRESTORE_EMULATOR_HOST; otherwise production with settings.tokenProvider.
/// let db = Firestore(projectID: "my-project")
/// try await db.collection("cities").document("SF").setData(["name": "San Francisco"])
/// ```
public final class Firestore: Sendable {
  /// The Google Cloud project ID.
  public let projectID: String
  /// The database ID; `(default)` unless a named database was chosen.
  public let databaseID: String

  /// `projects/{p}/databases/{d}`.
  let databaseName: String
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String
  /// How to end the listeners that are running, for ``terminate()``.
  let activeListens = Locked<[Int: @Sendable () -> Void]>([:])
  let nextListenID = Locked(0)
  /// Memory for large batches' request text, kept from one batch to the next.
  let batchText = BatchTextBuffers()

  /// The settings until the instance starts, then the parts made from them.
  private let startState: Locked<StartState>
  /// The parts, once made: read without the lock on every call after the first. Not
  /// retained: ``startState`` holds them from then on, as it never leaves `started`.
  private let startedParts = Atomic<UInt>(0)
  private let configurationError: FirestoreError?

  private enum StartState {
    /// Settings may still change; `terminated` when ``terminate()`` came first, so that the
    /// parts made then open no cache.
    case notStarted(ClientConfiguration, terminated: Bool)
    case started(ClientConfiguration, Parts)
  }

  /// What a started instance is made of, all made at once from its settings.
  final class Parts: Sendable {
    let rest: RESTClient
    /// Multiplexes this instance's real-time listeners over one Listen stream.
    let listenManager: ListenManager
    /// The local cache, pending writes and listeners' views (see ``LocalCacheSettings``).
    let localStore: LocalStore
    /// Listens to the documents listeners' views hold in limbo.
    let limboResolver: LimboResolver
    /// Sends the queued writes.
    let writePipeline: WritePipeline
    /// Every request goes through it: it refuses them while the network is disabled or
    /// the instance terminated, and notes whether the server could last be reached.
    let network: NetworkGate
    /// Where completion handlers and snapshot listeners are called, one at a time.
    let callbackQueue: DispatchQueue
    /// The persistent cache's field indexes; `nil` for any other cache.
    let persistentCacheIndexManager: PersistentCacheIndexManager?
    /// Reads the token provider's announcements of a new user, when it makes them.
    let userFollower: Task<Void, Never>?

    init(
      configuration: ClientConfiguration, projectID: String, database: String, databaseName: String, documentsRoot: String,
      configurationError: FirestoreError?, terminated: Bool
    ) {
      network = NetworkGate(base: configuration.effectiveTransport)
      var gated = configuration
      gated.transport = network
      let unusable =
        configurationError ?? Firestore.validate(projectID: projectID, database: database) ?? configuration.cache.validationError
      rest = RESTClient(
        settings: gated,
        databasePath: FirestoreRPC.databasePath(projectID: projectID, database: database),
        configurationError: unusable)
      // An instance that can make no call, or was terminated before it started, opens no
      // cache file.
      let opensCache = unusable == nil && !terminated
      let store = LocalStore(
        settings: opensCache ? configuration.cache : .none, projectID: projectID,
        databaseID: database, documentsRoot: documentsRoot,
        user: configuration.tokenProvider == nil ? .unauthenticated : configuration.tokenProvider?.currentTokenUser,
        log: configuration.log)
      localStore = store
      if case .persistent = configuration.cache, opensCache {
        persistentCacheIndexManager = PersistentCacheIndexManager(store: store)
      } else {
        persistentCacheIndexManager = nil
      }
      let manager = ListenManager(
        observer: ListenManager.Observer(
          connectionLost: { store.listenConnectionLost() }, roundDelivered: { store.endListenRound() },
          reachabilityUnknown: { store.listenReachabilityUnknown() }))
      listenManager = manager
      let resolver = LimboResolver(store: store, manager: manager, settings: rest.settings, database: databaseName)
      limboResolver = resolver
      store.observeLimbo { [weak resolver] in
        guard let resolver else { return }
        Task { await resolver.reconcile() }
      }
      let pipeline = WritePipeline(store: store, rest: rest, retryPolicy: configuration.retryPolicy)
      writePipeline = pipeline
      callbackQueue = configuration.dispatchQueue ?? DispatchQueue(label: "swift-firestore.callbacks")
      let announced = terminated ? nil : configuration.tokenProvider?.tokenUserChanges()
      userFollower = announced.map { changes in
        Task { [weak pipeline] in
          for await user in changes { pipeline?.followAnnounced(user) }
        }
      }
      if terminated { network.setMode(.terminated) }
      // Weak: the pipeline reaches the gate through its REST client.
      network.onReachable { [weak pipeline] in pipeline?.serverReachable() }
      rest.observeTokenUsers { [weak pipeline] user in pipeline?.tokenUserChanged(to: user) }
      // A listen keeps the credentials of its handshake: another user's reopens it at once.
      pipeline.observeUserChanges { [weak manager] in
        guard let manager else { return }
        Task { await manager.credentialsChanged() }
      }
      if rest.configurationError == nil && !terminated { pipeline.resume() }
    }
  }

  /// Creates a client for a database.
  ///
  /// Nothing is opened or sent until the instance is first used; until then ``settings``
  /// may be set.
  ///
  /// - Parameters:
  ///   - projectID: the project ID, e.g. `"my-project"` (`"demo-…"` for emulator-only projects).
  ///   - database: the database ID; `"(default)"` unless you created a named database.
  ///   - settings: host, credentials, retries and timeouts; by default from the environment.
  public convenience init(projectID: String, database: String = "(default)", settings: FirestoreSettings = FirestoreSettings()) {
    self.init(projectID: projectID, database: database, settings: settings, configurationError: nil)
  }

  /// Creates a client; `configurationError`, when given, fails every call.
  init(projectID: String, database: String, settings: FirestoreSettings, configurationError: FirestoreError?) {
    self.projectID = projectID
    self.databaseID = database
    databaseName = "projects/\(projectID)/databases/\(database)"
    documentsRoot = databaseName + "/documents"
    startState = Locked(.notStarted(settings.configuration, terminated: false))
    self.configurationError = configurationError
  }

  /// This instance's settings: a copy, to change and set back before the instance is first
  /// used, as in the Apple SDK.
  ///
  /// ```swift
  /// let settings = db.settings
  /// settings.cacheSettings = MemoryCacheSettings()
  /// db.settings = settings
  /// ```
  ///
  /// The instance starts at its first read, write, listener or network call (making
  /// references does not start it). From then on its settings can no longer change:
  /// setting them leaves them as they were and logs the refusal through the current
  /// ``FirestoreSettings/logHandler`` (the Apple SDK raises an exception instead).
  public var settings: FirestoreSettings {
    get { FirestoreSettings(configuration) }
    set {
      let new = newValue.configuration
      let refusal = startState.withLock { state -> ClientConfiguration? in
        switch state {
        case .notStarted(_, let terminated):
          state = .notStarted(new, terminated: terminated)
          return nil
        case .started(let current, _):
          return current
        }
      }
      refusal?.log(
        "Firestore settings were not changed: the instance has already started, and its settings can only be set "
          + "before any other use of it")
    }
  }

  /// The settings in force: those the instance started with, or will start with.
  var configuration: ClientConfiguration {
    startState.withLock { state in
      switch state {
      case .notStarted(let configuration, _), .started(let configuration, _): configuration
      }
    }
  }

  /// The parts, when they have been made.
  private var madeParts: Parts? {
    UnsafeRawPointer(bitPattern: startedParts.load(ordering: .acquiring)).map {
      Unmanaged<Parts>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// The parts of the instance, made from its settings on first use.
  var parts: Parts {
    if let parts = madeParts { return parts }
    return startState.withLock { state in
      switch state {
      case .started(_, let parts):
        return parts
      case .notStarted(let configuration, let terminated):
        let parts = Parts(
          configuration: configuration, projectID: projectID, database: databaseID, databaseName: databaseName,
          documentsRoot: documentsRoot,
          configurationError: configurationError, terminated: terminated)
        state = .started(configuration, parts)
        startedParts.store(UInt(bitPattern: Unmanaged.passUnretained(parts).toOpaque()), ordering: .releasing)
        return parts
      }
    }
  }

  /// The field indexes of the persistent cache, which let queries on the cache read fewer
  /// documents; `nil` unless ``FirestoreSettings/cache`` is persistent. The same object on
  /// every call, as in the Apple SDK; asking starts the instance, as there.
  ///
  /// ```swift
  /// db.persistentCacheIndexManager?.enableIndexAutoCreation()
  /// ```
  public var persistentCacheIndexManager: PersistentCacheIndexManager? { parts.persistentCacheIndexManager }

  /// Whether the instance has started (its settings are fixed).
  var isStarted: Bool { madeParts != nil }

  /// Ends an instance that has not started without starting it: it will open nothing.
  /// Returns false when it had started.
  func terminateUnstarted() -> Bool {
    startState.withLock { state in
      guard case .notStarted(let configuration, _) = state else { return false }
      state = .notStarted(configuration, terminated: true)
      return true
    }
  }

  /// The persistent cache file the settings name, whether or not it is open.
  var cacheFilePath: String? {
    guard case .persistent(let directory, _) = configuration.cache else { return nil }
    return directory.appendingPathComponent(LocalStore.fileName(projectID: projectID, databaseID: databaseID)).path
  }

  var rest: RESTClient { parts.rest }
  var listenManager: ListenManager { parts.listenManager }
  var localStore: LocalStore { parts.localStore }
  var writePipeline: WritePipeline { parts.writePipeline }
  var network: NetworkGate { parts.network }
  var callbackQueue: DispatchQueue { parts.callbackQueue }

  /// Creates a client for the project the credentials name: a service account key's
  /// `project_id`, the metadata server's project, a Firebase ID token's audience.
  ///
  /// ```swift
  /// let settings = FirestoreSettings()
  /// settings.tokenProvider = try ServiceAccountTokenProvider(contentsOf: "/secrets/key.json")
  /// let db = try await Firestore(settings: settings)
  /// ```
  ///
  /// - Throws: ``FirestoreError`` (`invalidArgument`) when the settings have no token
  ///   provider or its credentials name no project; the provider's error when asking fails.
  public convenience init(database: String = "(default)", settings: FirestoreSettings) async throws {
    guard let provider = settings.tokenProvider else {
      throw FirestoreError.invalidArgument("no project ID: the settings have no token provider to take it from; pass projectID:")
    }
    guard let projectID = try await provider.projectID(), !projectID.isEmpty else {
      throw FirestoreError.invalidArgument("no project ID: the credentials of \(provider) name none; pass projectID:")
    }
    self.init(projectID: projectID, database: database, settings: settings)
  }

  deinit {
    // Nothing can wait for the queue's answers any more; with a persistent cache, the
    // next instance sends what is left.
    madeParts?.writePipeline.stop()
    madeParts?.userFollower?.cancel()
  }

  /// Fails, naming the problem, when the instance cannot be used: its configuration is
  /// invalid, or it was terminated.
  func checkUsable() throws(FirestoreError) {
    if let error = rest.configurationError { throw error }
    if network.mode == .terminated { throw NetworkGate.refusal(.terminated, what: "the call")! }
  }

  /// Fails at once when a call that needs the server cannot reach it: the instance is
  /// unusable, or the network is disabled.
  func checkServerReachable(_ what: String) throws(FirestoreError) {
    try checkUsable()
    if let refusal = NetworkGate.refusal(network.mode, what: what) { throw refusal }
  }

  /// Checks the IDs that name the database; a bad one fails every call, naming the ID.
  static func validate(projectID: String, database: String) -> FirestoreError? {
    for (what, id) in [("project ID", projectID), ("database ID", database)] {
      if id.isEmpty { return .invalidArgument("\(what) must not be empty") }
      if id.contains("/") || id.contains(where: \.isWhitespace) {
        return .invalidArgument("\(what) \"\(id)\" must not contain \"/\" or whitespace")
      }
    }
    return nil
  }

  /// A top-level collection, or a subcollection when `collectionPath` has slashes
  /// (`"users/ada/favorites"`). The path must name a collection (odd segment count).
  public func collection(_ collectionPath: String) -> CollectionReference {
    CollectionReference.resolve(firestore: self, base: .root, baseError: nil, relative: collectionPath)
  }

  /// A document by its slash path (`"users/ada"`); the path must name a document.
  public func document(_ documentPath: String) -> DocumentReference {
    DocumentReference.resolve(firestore: self, base: .root, baseError: nil, relative: documentPath)
  }

  /// A query over every collection with this ID, at any depth.
  ///
  /// ```swift
  /// let all = try await db.collectionGroup("landmarks").whereField("type", isEqualTo: "museum").getDocuments()
  /// ```
  public func collectionGroup(_ collectionID: String) -> CollectionGroup {
    var error: FirestoreError?
    do throws(FirestoreError) {
      if collectionID.contains("/") {
        throw .invalidArgument("collection group ID \"\(collectionID)\" must not contain \"/\"")
      }
      try ResourcePath.validateID(collectionID, in: collectionID, what: "collection group ID")
    } catch let e {
      error = e
    }
    return CollectionGroup(firestore: self, collectionID: collectionID, recordedError: error)
  }

  /// Parses a full resource name of a document in this database into a reference.
  func reference(forName name: String) throws(FirestoreError) -> DocumentReference {
    guard let relative = name.pathBelow(documentsRoot) else {
      throw FirestoreError(.internal, "server returned document \"\(name)\" outside \(documentsRoot)")
    }
    return DocumentReference(firestore: self, resourcePath: ResourcePath(segments: relative.slashSegments), name: name)
  }
}
