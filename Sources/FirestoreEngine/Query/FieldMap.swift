import FirestoreWire

/// Reads and writes a value at a field path (split into names) inside a document's fields.
public enum FieldMap {
  /// The value at `segments`, or `nil` when a name is missing or an intermediate value is
  /// not a map. An empty path has no value.
  public static func get(_ fields: [String: Value], _ segments: [String]) -> Value? {
    guard let first = segments.first, let value = fields[first] else { return nil }
    if segments.count == 1 { return value }
    guard case .map(let inner) = value else { return nil }
    return get(inner, Array(segments.dropFirst()))
  }

  /// Sets the value at `segments`, creating intermediate maps and replacing intermediate
  /// values that are not maps, as a masked update or a transform does on the emulator
  /// (`c: 5` then setting `c.d` gives `c: {d: …}`). An empty path changes nothing.
  public static func set(_ fields: inout [String: Value], _ segments: [String], _ value: Value) {
    guard let first = segments.first else { return }
    if segments.count == 1 {
      fields[first] = value
      return
    }
    var inner: [String: Value] = [:]
    if case .map(let existing)? = fields[first] { inner = existing }
    // Drop the parent's copy first so that the nested map is uniquely referenced.
    fields[first] = nil
    set(&inner, Array(segments.dropFirst()), value)
    fields[first] = .map(inner)
  }

  /// Removes the value at `segments`. A missing path, or one through a non-map, is left
  /// alone; a parent map emptied this way stays as an empty map, as on the emulator
  /// (deleting `a.b` from `{a: {b: 1}}` leaves `{a: {}}`).
  public static func remove(_ fields: inout [String: Value], _ segments: [String]) {
    guard let first = segments.first else { return }
    if segments.count == 1 {
      fields[first] = nil
      return
    }
    guard case .map(var inner)? = fields[first] else { return }
    fields[first] = nil
    remove(&inner, Array(segments.dropFirst()))
    fields[first] = .map(inner)
  }

  /// Copies the values at each path of `mask` from `source` into `target`, removing those
  /// `source` lacks: what a write's update mask does to the stored fields.
  public static func applyMask(_ mask: [[String]], from source: [String: Value], to target: inout [String: Value]) {
    for segments in mask {
      if let value = get(source, segments) {
        set(&target, segments, value)
      } else {
        remove(&target, segments)
      }
    }
  }
}
