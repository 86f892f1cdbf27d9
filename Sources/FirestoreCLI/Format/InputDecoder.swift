import CommandLineSupport
import FirestoreClient
import FirestoreWire

/// Reads document data and query values given on the command line or in input files, in
/// the chosen ``DataFormat``.
///
/// Extended JSON may carry write sentinels (`{"$increment":1}`), which become
/// `FieldValue`s; maps become dictionaries so that merging writes see every leaf field.
struct InputDecoder: Sendable {
  /// Input format.
  let format: DataFormat
  /// What relative `$reference` paths resolve against.
  let documentsRoot: String

  /// Parses JSON text, naming `what` (an argument or a file line) when it is malformed.
  static func parseJSON(_ text: String, what: String) throws(UsageError) -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw UsageError("\(what) is not valid JSON: \(error)")
    }
  }

  /// Document data for a write, from a parsed JSON object.
  func writeData(_ json: JSONValue) throws -> [String: any Sendable] {
    switch format {
    case .json:
      return try ExtendedJSON.decodeInput(json, documentsRoot: documentsRoot).mapValues(Self.sendable)
    case .rest:
      return try restFields(json).mapValues { Self.sendable(.value($0)) }
    }
  }

  /// Document fields without sentinels (an `import` line's data).
  func fields(_ json: JSONValue) throws -> [String: Value] {
    switch format {
    case .json: return try ExtendedJSON.decodeFields(json, documentsRoot: documentsRoot)
    case .rest: return try restFields(json)
    }
  }

  /// One value of a query filter or cursor.
  func value(_ json: JSONValue) throws -> Value {
    switch format {
    case .json: return try ExtendedJSON.decode(json, documentsRoot: documentsRoot)
    case .rest: return try Value(json: json)
    }
  }

  /// REST-mapped fields: `{"name":{"stringValue":"x"}}`, or a document object with a
  /// `fields` member (as `--format rest` prints it).
  private func restFields(_ json: JSONValue) throws -> [String: Value] {
    guard case .object(let members) = json else {
      throw WireFormatError("document data must be a JSON object of REST values, got \(json.kindName)")
    }
    if let inner = json["fields"], members.allSatisfy({ ["fields", "path", "exists", "createTime", "updateTime", "name"].contains($0.0) }),
      (try? Value(json: inner)) == nil
    {
      return try Value.fields(from: inner)
    }
    do {
      return try Value.fields(from: json)
    } catch {
      throw WireFormatError("\(error) (--input-format rest expects fields like {\"n\":{\"integerValue\":\"5\"}})")
    }
  }

  /// What the client's `setData`/`updateData` take for one input value.
  static func sendable(_ input: ExtendedJSONInput) -> any Sendable {
    switch input {
    case .value(let vector) where vector.vectorDoubles != nil: return VectorValue(vector.vectorDoubles ?? [])
    case .value(.map(let fields)): return fields.mapValues { sendable(.value($0)) } as [String: any Sendable]
    case .value(let v): return v
    case .map(let members): return members.mapValues(sendable) as [String: any Sendable]
    case .sentinel(let s): return fieldValue(s)
    }
  }

  private static func fieldValue(_ sentinel: ExtendedJSONSentinel) -> FieldValue {
    switch sentinel {
    case .delete: return .delete()
    case .serverTimestamp: return .serverTimestamp()
    case .increment(.integer(let i)): return .increment(i)
    case .increment(let v): return .increment(v.numericDouble)
    case .maximum(.integer(let i)): return .maximum(Int(i))
    case .maximum(let v): return .maximum(v.numericDouble)
    case .minimum(.integer(let i)): return .minimum(Int(i))
    case .minimum(let v): return .minimum(v.numericDouble)
    case .arrayUnion(let elements): return .arrayUnion(elements)
    case .arrayRemove(let elements): return .arrayRemove(elements)
    }
  }
}

extension Value {
  /// The number as a double (sentinel arguments are checked to be numbers when decoded).
  fileprivate var numericDouble: Double {
    switch self {
    case .integer(let i): return Double(i)
    case .double(let d): return d
    default: return 0
    }
  }
}
