/// A write transform spelled in extended JSON: `{"$delete":true}`, `{"$increment":1}`, ….
///
/// Sentinels are only meaningful as field values of a written document (``ExtendedJSON/decodeInput(_:documentsRoot:)``);
/// a plain value decode rejects them.
public enum ExtendedJSONSentinel: Sendable, Equatable {
  /// `{"$delete":true}`: remove the field.
  case delete
  /// `{"$serverTimestamp":true}`: the commit time.
  case serverTimestamp
  /// `{"$increment":n}`: add `n` (an integer or a double) to the field.
  case increment(Value)
  /// `{"$maximum":n}`: the larger of the field and `n`.
  case maximum(Value)
  /// `{"$minimum":n}`: the smaller of the field and `n`.
  case minimum(Value)
  /// `{"$arrayUnion":[…]}`: append the elements the array does not hold yet.
  case arrayUnion([Value])
  /// `{"$arrayRemove":[…]}`: remove every occurrence of the elements.
  case arrayRemove([Value])

  /// The tag that spells this sentinel, e.g. `$increment`.
  public var tag: String {
    switch self {
    case .delete: return "$delete"
    case .serverTimestamp: return "$serverTimestamp"
    case .increment: return "$increment"
    case .maximum: return "$maximum"
    case .minimum: return "$minimum"
    case .arrayUnion: return "$arrayUnion"
    case .arrayRemove: return "$arrayRemove"
    }
  }
}
