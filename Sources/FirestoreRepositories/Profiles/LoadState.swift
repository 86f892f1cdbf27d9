import FirestoreClient

/// The three states of a profile screen, kept apart so that "still loading" never shows
/// as "failed" (a "Name Unavailable" flash while the data is on its way).
///
/// - ``loading(cached:)``: a read is in flight. `cached` is a value to show meanwhile (from
///   the local cache), or `nil` for a placeholder.
/// - ``loaded(_:)``: a value to show. With a server read that failed after the cache
///   produced one, this is the cached value (see ``UserProfileRepository``).
/// - ``failed(_:)``: neither the cache nor the server produced a value, and nothing is in
///   flight any more.
///
/// ```swift
/// switch state {
/// case .loading(let cached?): NameLabel(cached.name).redacted(reason: [])
/// case .loading(nil): NameLabel("Placeholder").redacted(reason: .placeholder)
/// case .loaded(let profile): NameLabel(profile.name)
/// case .failed: NameLabel("Name Unavailable")
/// }
/// ```
public enum LoadState<Value: Sendable>: Sendable {
  /// A read is in flight; `cached` is what to show meanwhile, if anything.
  case loading(cached: Value?)
  /// The value.
  case loaded(Value)
  /// Nothing could be read; the error says why (`notFound` for a missing document).
  case failed(FirestoreError)

  /// The value to show: the loaded one or the cached one while loading.
  public var value: Value? {
    switch self {
    case .loading(let cached): return cached
    case .loaded(let value): return value
    case .failed: return nil
    }
  }

  /// Whether a read is in flight.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// The error, when the state is ``failed(_:)``.
  public var error: FirestoreError? {
    if case .failed(let error) = self { return error }
    return nil
  }
}

extension LoadState: Equatable where Value: Equatable {
  /// Equal when the cases and values match; two failures are equal when their codes and
  /// messages are.
  public static func == (lhs: LoadState, rhs: LoadState) -> Bool {
    switch (lhs, rhs) {
    case (.loading(let a), .loading(let b)): return a == b
    case (.loaded(let a), .loaded(let b)): return a == b
    case (.failed(let a), .failed(let b)): return a.code == b.code && a.message == b.message
    default: return false
    }
  }
}
