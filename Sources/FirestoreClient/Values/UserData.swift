/// User data as the Apple SDK takes it (`[String: Any]`, `Any`), seen as the `Sendable`
/// values the rest of the client reads.
///
/// Sendability is a compile-time marker: at run time `Any` and `any Sendable` are the same
/// type, so these casts always succeed and copy nothing (a collection keeps its storage).
/// Treating the values as `Sendable` is sound because the client reads them once, to turn
/// them into Firestore values, and accepts only immutable types (numbers, strings, dates,
/// data, references, sentinels, and arrays and maps of them); anything else is refused
/// with `invalidArgument`.
enum UserData {
  /// `value` as `any Sendable`.
  static func sendable(_ value: Any) -> any Sendable {
    // A marker protocol cannot be the target of a cast; an array of it can.
    (([value] as [Any]) as Any as! [any Sendable])[0]
  }

  /// `data` as `[String: any Sendable]`.
  static func sendable(_ data: [String: Any]) -> [String: any Sendable] {
    (data as Any) as! [String: any Sendable]
  }

  /// `data` as `[FieldPath: any Sendable]`.
  static func sendable(_ data: [FieldPath: Any]) -> [FieldPath: any Sendable] {
    (data as Any) as! [FieldPath: any Sendable]
  }

  /// `data`, whose keys are the Apple SDK's mix of dotted `String`s and ``FieldPath``s, by
  /// field path; a key of another type makes it an `invalidArgument` that names the type.
  static func fieldPaths(_ data: [AnyHashable: Any]) -> Result<[FieldPath: any Sendable], FirestoreError> {
    Result { () throws(FirestoreError) in
      try WriteBuilder.fieldPaths(sendable(data)) { key throws(FirestoreError) in
        switch key.base {
        case let dotted as String: return try FieldPath.parse(dotted: dotted)
        case let fieldPath as FieldPath: return fieldPath
        default: throw .invalidArgument("updateData's keys must be Strings or FieldPaths; one is a \(type(of: key.base))")
        }
      }
    }
  }

  /// `data` as `[AnyHashable: any Sendable]`.
  static func sendable(_ data: [AnyHashable: Any]) -> [AnyHashable: any Sendable] {
    (data as Any) as! [AnyHashable: any Sendable]
  }

  /// `values` as `[any Sendable]`.
  static func sendable(_ values: [Any]) -> [any Sendable] {
    (values as Any) as! [any Sendable]
  }
}
