import Foundation

/// One value of a pipeline request (`google.firestore.v1.Value` as `executePipeline` reads it).
///
/// A pipeline's arguments are Firestore values plus four kinds that only requests carry: a
/// field reference, a variable reference, a function call and a nested pipeline. They are a
/// type of their own rather than more cases of ``Value`` because a stored document never
/// holds them, and everything that reads documents can go on assuming so.
public indirect enum PipelineExpression: Sendable, Hashable {
  /// A plain value, sent as it is.
  case constant(Value)
  /// An `arrayValue` whose elements are themselves expressions.
  case array([PipelineExpression])
  /// A `mapValue` whose fields are themselves expressions.
  case map([String: PipelineExpression])
  /// `fieldReferenceValue`: a field of the current document, as a canonical field path.
  case field(String)
  /// `variableReferenceValue`: a name bound by a `let` stage or a function's lambda.
  case variable(String)
  /// `functionValue`: a named function applied to arguments.
  case function(PipelineFunction)
  /// `pipelineValue`: a nested pipeline (a subquery or a `union` branch).
  case pipeline([PipelineStage])

  /// The REST JSON form, map keys sorted so that output is deterministic.
  public var json: JSONValue {
    switch self {
    case .constant(let value): return value.json
    case .array(let elements):
      return .object([("arrayValue", elements.isEmpty ? .object([]) : .object([("values", .array(elements.map(\.json)))]))])
    case .map(let fields):
      return .object([("mapValue", fields.isEmpty ? .object([]) : .object([("fields", Self.json(fields))]))])
    case .field(let path): return .object([("fieldReferenceValue", .string(path))])
    case .variable(let name): return .object([("variableReferenceValue", .string(name))])
    case .function(let function): return .object([("functionValue", function.json)])
    case .pipeline(let stages): return .object([("pipelineValue", PipelineStage.json(stages))])
    }
  }

  /// Reads a REST JSON value; plain values become ``constant(_:)``, arrays and maps that
  /// hold any of the request-only kinds become ``array(_:)`` and ``map(_:)``.
  ///
  /// - Throws: ``WireFormatError`` naming the offending member.
  public init(json: JSONValue) throws {
    guard case .object(let members) = json, members.count == 1, let (key, payload) = members.first else {
      self = .constant(try Value(json: json))
      return
    }
    switch key {
    case "fieldReferenceValue":
      guard case .string(let path) = payload else { throw WireFormatError("fieldReferenceValue must be a string") }
      self = .field(path)
    case "variableReferenceValue":
      guard case .string(let name) = payload else { throw WireFormatError("variableReferenceValue must be a string") }
      self = .variable(name)
    case "functionValue":
      self = .function(try PipelineFunction(json: payload))
    case "pipelineValue":
      self = .pipeline(try PipelineStage.stages(from: payload))
    case "arrayValue":
      guard case .object = payload else { throw WireFormatError("arrayValue must be an object, got \(payload.kindName)") }
      let values = payload["values"] ?? .array([])
      guard case .array(let items) = values else { throw WireFormatError("values must be an array, got \(values.kindName)") }
      let elements = try items.map(PipelineExpression.init(json:))
      self = Self.folded(array: elements)
    case "mapValue":
      guard case .object = payload else { throw WireFormatError("mapValue must be an object, got \(payload.kindName)") }
      let fields = try Self.fields(from: payload["fields"])
      self = Self.folded(map: fields)
    default:
      self = .constant(try Value(json: json))
    }
  }

  /// The plain value this expression is, when it holds no request-only kind.
  public var constantValue: Value? {
    switch self {
    case .constant(let value): return value
    case .array(let elements):
      var values: [Value] = []
      values.reserveCapacity(elements.count)
      for element in elements {
        guard let value = element.constantValue else { return nil }
        values.append(value)
      }
      return .array(values)
    case .map(let fields):
      var values: [String: Value] = [:]
      for (key, field) in fields {
        guard let value = field.constantValue else { return nil }
        values[key] = value
      }
      return .map(values)
    case .field, .variable, .function, .pipeline: return nil
    }
  }

  /// Writes a map of expressions with its keys sorted.
  static func json(_ fields: [String: PipelineExpression]) -> JSONValue {
    .object(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) })
  }

  /// Reads a map of expressions (missing means empty).
  static func fields(from json: JSONValue?) throws -> [String: PipelineExpression] {
    guard let json else { return [:] }
    guard case .object(let members) = json else { throw WireFormatError("fields must be an object, got \(json.kindName)") }
    var out = [String: PipelineExpression](reservingCapacity: members.count)
    for (key, value) in members { out[key] = try PipelineExpression(json: value) }
    return out
  }

  /// An array read from JSON: a constant when every element is one, so that equal
  /// requests read back equal whichever way they were built.
  private static func folded(array elements: [PipelineExpression]) -> PipelineExpression {
    let array = PipelineExpression.array(elements)
    return array.constantValue.map(PipelineExpression.constant) ?? array
  }

  private static func folded(map fields: [String: PipelineExpression]) -> PipelineExpression {
    let map = PipelineExpression.map(fields)
    return map.constantValue.map(PipelineExpression.constant) ?? map
  }
}
