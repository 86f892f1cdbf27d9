import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// One `--where`/`--or` filter, `FIELD OP VALUE`: a field path (back-quote names with
/// dots or spaces: `` `a.b`.c ``), an operator, and an extended-JSON value.
struct WhereClause {
  /// The operators for help and error messages, as typed: the client's symbols.
  static let operatorList = Filter.Operator.allCases.map(\.symbol).joined(separator: " ")

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
    guard let operation = Filter.Operator(symbol: op) else {
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
    if operation.takesList {
      guard case .array(let elements) = value else {
        throw context.usage("\(option) '\(DisplayText.excerpt(text))': \(op) needs a JSON array value, like [1, 2]")
      }
      return WhereClause(filter: .whereField(path, operation, elements.map { sendable($0, context: context) }))
    }
    return WhereClause(filter: .whereField(path, operation, sendable(value, context: context)))
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
