/// What `select`, `addFields`, `distinct` and `aggregate`'s groups take: a ``Field``
/// (named by its path) or an expression given a name with ``Expression/as(_:)``.
public protocol Selectable: Sendable {}

/// A selectable's output name and the expression that computes it.
protocol NamedSelection: Selectable {
  /// The name of the output field.
  var alias: String { get }
  /// What the field holds.
  var expression: any Expression { get }
}

extension Field: NamedSelection {
  var alias: String { fieldName }
  var expression: any Expression { self }
}
