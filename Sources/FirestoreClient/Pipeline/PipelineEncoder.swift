import FirestoreWire
import Foundation

/// Turns a pipeline's expressions into their request form, with the values of one database.
///
/// Expressions are built without a database (`Field("a").equal(ref)` names none), so plain
/// values are converted here, when the request is built, where a reference to another
/// database can be refused.
struct PipelineEncoder {
  let firestore: Firestore

  /// An expression this library defines; another conforming type is an error.
  func encode(_ expression: any Expression) throws(FirestoreError) -> PipelineExpression {
    guard let encodable = expression as? any PipelineEncodable else {
      throw .invalidArgument("\(type(of: expression)) is not an expression this library can send")
    }
    return try encodable.encoded(self)
  }

  /// Expressions in order.
  func encode(_ expressions: [any Expression]) throws(FirestoreError) -> [PipelineExpression] {
    var out: [PipelineExpression] = []
    out.reserveCapacity(expressions.count)
    for expression in expressions { out.append(try encode(expression)) }
    return out
  }

  /// A `Sendable` argument: an expression as it is, `nil` as null, arrays and dictionaries
  /// as the ``ArrayExpression`` and ``MapExpression`` of their elements, option names as
  /// strings, anything else as a constant.
  func encode(value: any Sendable) throws(FirestoreError) -> PipelineExpression {
    switch value {
    case let expression as any Expression: return try encode(expression)
    case let aggregate as AggregateFunction: return try aggregate.encoded(self)
    case let wire as PipelineExpression: return wire
    case let optional as any OptionalValue:
      guard let wrapped = optional.wrappedValue else { return .constant(.null) }
      return try encode(value: UserData.sendable(wrapped))
    case let option as any PipelineOptionName: return .constant(.string(option.rawValue))
    case let elements as [any Sendable]: return try encode(ArrayExpression(elements))
    case let entries as [String: any Sendable]: return try encode(MapExpression(entries))
    default:
      return .constant(try constant(value))
    }
  }

  /// A plain value, checked as a query's argument is.
  func constant(_ value: any Sendable) throws(FirestoreError) -> Value {
    try UserDataReader.argument(value, firestore: firestore, what: "a pipeline", cutsTimestamps: false)
  }

  /// An alias → expression map, as `select`, `addFields`, `distinct` and `aggregate` send
  /// them; two selections of one name are an error, as in the Apple SDK.
  func encode(selections: [any Selectable], stage: String) throws(FirestoreError) -> PipelineExpression {
    var named: [(String, any Expression)] = []
    for selection in selections {
      guard let selection = selection as? any NamedSelection else {
        throw .invalidArgument("\(type(of: selection)) is not a selection this library can send")
      }
      named.append((selection.alias, selection.expression))
    }
    return try map(named, stage: stage) { (expression) throws(FirestoreError) in try encode(expression) }
  }

  /// An alias → accumulator map, the first argument of `aggregate`.
  func encode(aggregates: [AliasedAggregate]) throws(FirestoreError) -> PipelineExpression {
    try map(aggregates.map { ($0.alias, $0.function) }, stage: "aggregate") { (function) throws(FirestoreError) in
      try function.encoded(self)
    }
  }

  /// A map of named entries, each encoded by `encode`; a name given twice is an error.
  private func map<Item>(
    _ entries: [(String, Item)], stage: String, _ encode: (Item) throws(FirestoreError) -> PipelineExpression
  ) throws(FirestoreError) -> PipelineExpression {
    var fields: [String: PipelineExpression] = [:]
    for (name, item) in entries {
      guard fields[name] == nil else { throw .invalidArgument("\(stage) names the output field \"\(name)\" twice") }
      fields[name] = try encode(item)
    }
    return .map(fields)
  }
}
