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
  /// as `array(…)` and `map(…)` calls of their converted elements (a map's keys in sorted
  /// order, since a dictionary has none), option names as strings, anything else as a
  /// constant.
  func encode(value: any Sendable) throws(FirestoreError) -> PipelineExpression {
    switch value {
    case let expression as any Expression: return try encode(expression)
    case let aggregate as AggregateFunction: return try aggregate.encoded(self)
    case let wire as PipelineExpression: return wire
    case let optional as any OptionalValue:
      guard let wrapped = optional.wrappedValue else { return .constant(.null) }
      return try encode(value: UserData.sendable(wrapped))
    case let option as any PipelineOptionName: return .constant(.string(option.rawValue))
    case let elements as [any Sendable]:
      var args: [PipelineExpression] = []
      args.reserveCapacity(elements.count)
      for element in elements { args.append(try encode(value: element)) }
      return .function(PipelineFunction(name: "array", args: args))
    case let entries as [String: any Sendable]:
      var args: [PipelineExpression] = []
      for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
        args.append(.constant(.string(key)))
        args.append(try encode(value: element))
      }
      return .function(PipelineFunction(name: "map", args: args))
    default:
      return .constant(try constant(value))
    }
  }

  /// A plain value, checked as a query's argument is.
  func constant(_ value: any Sendable) throws(FirestoreError) -> Value {
    try UserDataReader.argument(value, firestore: firestore, what: "a pipeline")
  }

  /// An alias → expression map, as `select`, `addFields`, `distinct` and `aggregate` send
  /// them; two selections of one name are an error, as in the Apple SDK.
  func encode(selections: [any Selectable], stage: String) throws(FirestoreError) -> PipelineExpression {
    var fields: [String: PipelineExpression] = [:]
    for selection in selections {
      guard let named = selection as? any NamedSelection else {
        throw .invalidArgument("\(type(of: selection)) is not a selection this library can send")
      }
      guard fields[named.alias] == nil else {
        throw .invalidArgument("\(stage) names the output field \"\(named.alias)\" twice")
      }
      fields[named.alias] = try encode(named.expression)
    }
    return .map(fields)
  }
}
