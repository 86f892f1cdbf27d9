/// A field value read from extended JSON for a write: a plain value, a map that may hold
/// sentinels further down, or a sentinel itself.
///
/// Maps are kept apart from ``Value/map(_:)`` so that a merging write can see every leaf
/// and a transform nested in a map keeps its full field path.
public indirect enum ExtendedJSONInput: Sendable, Equatable {
  /// A value with no sentinel inside (never a non-empty map; those are ``map(_:)``).
  case value(Value)
  /// A JSON object: its members, each of which may be a sentinel.
  case map([String: ExtendedJSONInput])
  /// A transform or delete.
  case sentinel(ExtendedJSONSentinel)

  /// The plain value, when no sentinel is anywhere inside.
  public var plainValue: Value? {
    switch self {
    case .value(let v): return v
    case .sentinel: return nil
    case .map(let members):
      var out: [String: Value] = [:]
      for (key, member) in members {
        guard let v = member.plainValue else { return nil }
        out[key] = v
      }
      return .map(out)
    }
  }
}
