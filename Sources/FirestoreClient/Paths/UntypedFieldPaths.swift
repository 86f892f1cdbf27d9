/// Field lists of the Apple SDK's type, `[Any]` (as `mergeFields:` takes them), read as
/// field paths: each element a dotted `String` or a ``FieldPath``.
enum UntypedFieldPaths {
  /// The fields of `list`; an element of another type stays in the list as one whose
  /// ``FieldPathConvertible/fieldPath()`` fails with `invalidArgument`, so that the write
  /// naming it is refused as any bad input is.
  static func read(_ list: [Any]) -> [any FieldPathConvertible] {
    list.map { element in
      switch element {
      case let field as any FieldPathConvertible: return field
      default: return Unusable(typeName: String(describing: type(of: element)))
      }
    }
  }

  /// An element that names no field.
  private struct Unusable: FieldPathConvertible {
    let typeName: String

    func fieldPath() throws(FirestoreError) -> FieldPath {
      throw .invalidArgument("a field list holds a \(typeName); list each field as a String or a FieldPath")
    }
  }
}
