import FirestorePlatform
import FirestoreWire

#if canImport(Observation)
  import Observation
  import FirestoreWire

  /// The latest value of a repository's state stream as an `@Observable` object on the
  /// main actor, for SwiftUI (`@State var feed = ObservableState(...)`) and anything else
  /// that uses Observation. It follows the stream until the stream ends or the object is
  /// released.
  ///
  /// ```swift
  /// @MainActor let profile = ObservableState(.loading(cached: nil), repository.followProfile())
  /// // in a view: if case .loaded(let p) = profile.value { Text(p.name) }
  /// ```
  @Observable
  @MainActor
  public final class ObservableState<Value: Sendable> {
    /// The latest value of the stream (`initial` until the first arrives).
    public private(set) var value: Value
    /// How many values have arrived.
    public private(set) var updates = 0
    @ObservationIgnored private let follower = Follower()

    /// Follows `stream`, starting from `initial`.
    public init<S: AsyncSequence & Sendable>(_ initial: Value, _ stream: S) where S.Element == Value, S.Failure == Never {
      value = initial
      follower.start { [weak self] in
        for await value in stream {
          guard let self else { return }
          self.value = value
          self.updates += 1
        }
      }
    }

    deinit {
      follower.cancel()
    }

    /// Holds the following task so that `deinit` can stop it.
    private final class Follower: Sendable {
      private let task = Locked<Task<Void, Never>?>(nil)

      func start(_ body: @escaping @MainActor @Sendable () async -> Void) {
        task.withLock { $0 = Task { @MainActor in await body() } }
      }

      func cancel() {
        task.withLock { $0?.cancel() }
      }
    }
  }

  extension ArticleFeed {
    /// The feed's state as an `@Observable` object (see ``ObservableState``).
    @MainActor public func observableState() -> ObservableState<ArticleFeedState> {
      ObservableState(broadcaster.value, states())
    }
  }

  extension UserProfileRepository {
    /// The live profile as an `@Observable` object (see ``ObservableState``).
    @MainActor public func observableProfile() -> ObservableState<LoadState<UserProfile>> {
      ObservableState(.loading(cached: nil), followProfile())
    }
  }
#endif
