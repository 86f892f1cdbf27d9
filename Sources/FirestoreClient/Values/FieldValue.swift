import FirestoreWire

/// Sentinel values for writes: delete a field, or have the server transform it.
///
/// ```swift
/// try await ref.updateData([
///   "visits": FieldValue.increment(1),
///   "lastSeen": FieldValue.serverTimestamp(),
///   "tags": FieldValue.arrayUnion(["swift"]),
///   "draft": FieldValue.delete(),
/// ])
/// ```
///
/// Sentinels may appear as field values in `setData` and `updateData`, nested in maps,
/// but not inside arrays. ``delete()`` is allowed in `updateData` (top-level keys only)
/// and in merging `setData`, not in a plain `setData`.
public struct FieldValue: Sendable {
  enum Kind: Sendable {
    case delete
    case serverTimestamp
    case increment(Value)
    case maximum(Value)
    case minimum(Value)
    case arrayUnion([any Sendable])
    case arrayRemove([any Sendable])
  }

  let kind: Kind

  /// Removes the field.
  public static func delete() -> FieldValue { FieldValue(kind: .delete) }

  /// Sets the field to the time the server commits the write.
  public static func serverTimestamp() -> FieldValue { FieldValue(kind: .serverTimestamp) }

  /// Adds to the field's number (a missing or non-numeric field counts as 0).
  /// Integer plus integer stays an integer.
  public static func increment(_ value: Int) -> FieldValue { FieldValue(kind: .increment(.integer(Int64(value)))) }

  /// Adds to the field's number; the result is an integer when both are integers.
  public static func increment(_ value: Int64) -> FieldValue { FieldValue(kind: .increment(.integer(value))) }

  /// Adds to the field's number; the result is a double.
  public static func increment(_ value: Double) -> FieldValue { FieldValue(kind: .increment(.double(value))) }

  /// Sets the field to the larger of its number and `value` (a non-numeric field is replaced).
  public static func maximum(_ value: Int) -> FieldValue { FieldValue(kind: .maximum(.integer(Int64(value)))) }

  /// Sets the field to the larger of its number and `value` (a non-numeric field is replaced).
  public static func maximum(_ value: Double) -> FieldValue { FieldValue(kind: .maximum(.double(value))) }

  /// Sets the field to the smaller of its number and `value` (a non-numeric field is replaced).
  public static func minimum(_ value: Int) -> FieldValue { FieldValue(kind: .minimum(.integer(Int64(value)))) }

  /// Sets the field to the smaller of its number and `value` (a non-numeric field is replaced).
  public static func minimum(_ value: Double) -> FieldValue { FieldValue(kind: .minimum(.double(value))) }

  /// Appends each element that the array does not already contain. A missing or
  /// non-array field becomes an array of `elements`.
  public static func arrayUnion(_ elements: [Any]) -> FieldValue { FieldValue(kind: .arrayUnion(UserData.sendable(elements))) }

  /// Removes every occurrence of each element. A missing or non-array field becomes `[]`.
  public static func arrayRemove(_ elements: [Any]) -> FieldValue { FieldValue(kind: .arrayRemove(UserData.sendable(elements))) }

  /// Whether this is ``delete()``, the one sentinel that is not a transform.
  var isDelete: Bool {
    if case .delete = kind { return true }
    return false
  }

  /// The Apple-SDK name of this sentinel, for error messages.
  var methodName: String {
    switch kind {
    case .delete: return "FieldValue.delete()"
    case .serverTimestamp: return "FieldValue.serverTimestamp()"
    case .increment: return "FieldValue.increment()"
    case .maximum: return "FieldValue.maximum()"
    case .minimum: return "FieldValue.minimum()"
    case .arrayUnion: return "FieldValue.arrayUnion()"
    case .arrayRemove: return "FieldValue.arrayRemove()"
    }
  }
}
