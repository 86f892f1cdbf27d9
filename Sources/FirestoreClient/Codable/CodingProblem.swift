/// A problem the Firestore coders found, carried as the `underlyingError` of the Swift
/// `EncodingError`/`DecodingError` they throw internally.
///
/// The coders throw Swift's own errors while working, so that `Codable` code which catches
/// `DecodingError.keyNotFound` and the like keeps working; the public entry points turn
/// whatever escapes into a ``FirestoreError``. This marker tells the coders' own phrases
/// ("expected Int but found String \"many\"") apart from errors thrown by user code.
struct CodingProblem: Error {
  /// The problem, phrased to follow `field "path"`.
  let phrase: String

  /// A `DecodingError` context for a problem at `path`.
  static func context(_ path: [any CodingKey], _ phrase: String) -> DecodingError.Context {
    DecodingError.Context(codingPath: path, debugDescription: phrase, underlyingError: CodingProblem(phrase: phrase))
  }

  /// An `EncodingError` context for a problem at `path`.
  static func encodingContext(_ path: [any CodingKey], _ phrase: String) -> EncodingError.Context {
    EncodingError.Context(codingPath: path, debugDescription: phrase, underlyingError: CodingProblem(phrase: phrase))
  }

  /// The `FirestoreError` for an error that escaped decoding a `typeName`.
  static func decodingFailure(_ error: any Error, decoding typeName: String) -> FirestoreError {
    let prefix = "cannot decode \(typeName): "
    switch error {
    case let error as FirestoreError:
      return error
    case DecodingError.keyNotFound(let key, let context):
      return .invalidArgument(prefix + "\(CodingPath.field(context.codingPath + [key])) is missing")
    case DecodingError.typeMismatch(let type, let context):
      return .invalidArgument(prefix + describe(context.codingPath, context, orElse: "does not match the expected type \(type)"))
    case DecodingError.valueNotFound(let type, let context):
      return .invalidArgument(prefix + describe(context.codingPath, context, orElse: "expected \(type) but found null"))
    case DecodingError.dataCorrupted(let context):
      return .invalidArgument(prefix + describe(context.codingPath, context.debugDescription, underlying: context.underlyingError))
    default:
      return .invalidArgument(prefix + "\(error)")
    }
  }

  /// The `FirestoreError` for an error that escaped encoding a `typeName`.
  static func encodingFailure(_ error: any Error, encoding typeName: String) -> FirestoreError {
    let prefix = "cannot encode \(typeName): "
    switch error {
    case let error as FirestoreError:
      return error
    case EncodingError.invalidValue(_, let context):
      return .invalidArgument(prefix + describe(context.codingPath, context.debugDescription, underlying: context.underlyingError))
    default:
      return .invalidArgument(prefix + "\(error)")
    }
  }

  private static func describe(_ path: [any CodingKey], _ context: DecodingError.Context, orElse fallback: String) -> String {
    let description = context.debugDescription.isEmpty ? fallback : context.debugDescription
    return describe(path, description, underlying: context.underlyingError)
  }

  /// `field "a.b" expected …` for the coders' own problems; `field "a.b": …` for others.
  private static func describe(_ path: [any CodingKey], _ description: String, underlying: (any Error)?) -> String {
    if let problem = underlying as? CodingProblem { return "\(CodingPath.field(path)) \(problem.phrase)" }
    return path.isEmpty ? description : "\(CodingPath.field(path)): \(description)"
  }
}
