import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// One `--where`/`--or` filter, `FIELD OP VALUE`: a field path (back-quote names with
/// dots or spaces: `` `a.b`.c ``), an operator, and an extended-JSON value.
struct WhereClause {
  /// The operators, as typed.
  static let operators: [String: Filter.Operator] = [
    "==": .isEqualTo, "!=": .isNotEqualTo, "<": .isLessThan, "<=": .isLessThanOrEqualTo, ">": .isGreaterThan,
    ">=": .isGreaterThanOrEqualTo, "array-contains": .arrayContains, "array-contains-any": .arrayContainsAny, "in": .in,
    "not-in": .notIn,
  ]
  /// The operators for help and error messages.
  static let operatorList = "== != < <= > >= array-contains array-contains-any in not-in"

  /// The filter.
  let filter: Filter

  /// Parses `FIELD OP VALUE`.
  ///
  /// - Throws: ``UsageError`` naming the option and what is wrong: a missing part, an
  ///   unknown operator, a value that is not JSON, a non-array for `in`.
  static func parse(_ text: String, option: String, context: CommandContext) throws -> WhereClause {
    var rest = Substring(text).drop(while: \.isWhitespace)
    var field = ""
    var quoted = false
    while let c = rest.first, quoted || !c.isWhitespace {
      if c == "`" { quoted.toggle() }
      field.append(c)
      rest = rest.dropFirst()
    }
    rest = rest.drop(while: \.isWhitespace)
    let op = String(rest.prefix(while: { !$0.isWhitespace }))
    let valueText = rest.dropFirst(op.count).trimmingCharacters(in: .whitespaces)
    guard !field.isEmpty, !op.isEmpty, !valueText.isEmpty else {
      throw context.usage("\(option) '\(DisplayText.excerpt(text))' needs three parts, FIELD OP VALUE, like \(option) 'age >= 21'")
    }
    guard let operation = operators[op] else {
      throw context.usage("\(option) '\(DisplayText.excerpt(text))': unknown operator '\(op)'; use one of \(operatorList)")
    }
    let path = try fieldPath(field, option: option, context: context)
    let json: JSONValue
    do {
      json = try JSONParser.parse(valueText)
    } catch {
      throw context.usage(
        "\(option) '\(DisplayText.excerpt(text))': value \(DisplayText.excerpt(valueText)) is not JSON (\(error)); strings need double quotes, like \(option) 'name == \"Ada\"'"
      )
    }
    let value: Value
    do {
      value = try context.decoder.value(json)
    } catch {
      throw context.usage("\(option) '\(DisplayText.excerpt(text))': \(error)")
    }
    let argument = sendable(value, context: context)
    switch operation {
    case .in, .notIn, .arrayContainsAny:
      guard case .array(let elements) = value else {
        throw context.usage("\(option) '\(DisplayText.excerpt(text))': \(op) needs a JSON array value, like [1, 2]")
      }
      let list = elements.map { sendable($0, context: context) }
      switch operation {
      case .in: return WhereClause(filter: .whereField(path, in: list))
      case .notIn: return WhereClause(filter: .whereField(path, notIn: list))
      default: return WhereClause(filter: .whereField(path, arrayContainsAny: list))
      }
    case .isEqualTo: return WhereClause(filter: .whereField(path, isEqualTo: argument))
    case .isNotEqualTo: return WhereClause(filter: .whereField(path, isNotEqualTo: argument))
    case .isLessThan: return WhereClause(filter: .whereField(path, isLessThan: argument))
    case .isLessThanOrEqualTo: return WhereClause(filter: .whereField(path, isLessThanOrEqualTo: argument))
    case .isGreaterThan: return WhereClause(filter: .whereField(path, isGreaterThan: argument))
    case .isGreaterThanOrEqualTo: return WhereClause(filter: .whereField(path, isGreaterThanOrEqualTo: argument))
    case .arrayContains: return WhereClause(filter: .whereField(path, arrayContains: argument))
    }
  }

  /// A field path: dot-separated names, each optionally back-quoted (`` `a.b` `` is one name).
  static func fieldPath(_ text: String, option: String, context: CommandContext) throws -> FieldPath {
    var segments: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    for c in text {
      if escaped {
        current.append(c)
        escaped = false
      } else if quoted && c == "\\" {
        escaped = true
      } else if c == "`" {
        quoted.toggle()
      } else if c == "." && !quoted {
        segments.append(current)
        current = ""
      } else {
        current.append(c)
      }
    }
    segments.append(current)
    guard !quoted, !text.isEmpty, !segments.contains("") else {
      throw context.usage("\(option): bad field path '\(DisplayText.excerpt(text))' (empty name or unclosed back-quote)")
    }
    return FieldPath(segments)
  }

  /// What the client's query builders take for a value: strings as `String` and references
  /// into this database as `DocumentReference`, as a document-ID (`__name__`) filter or
  /// cursor needs them; everything else as the `Value` itself.
  static func sendable(_ value: Value, context: CommandContext) -> any Sendable {
    switch value {
    case .string(let s): return s
    case .reference(let name):
      guard let path = name.removingBytePrefix(context.connection.documentsRoot + "/") else { return value }
      return context.db.document(path)
    default: return value
    }
  }
}
