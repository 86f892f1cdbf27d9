/// A problem the Firestore coders found, carried as the `underlyingError` of the Swift
/// `EncodingError`/`DecodingError` they throw internally.
///
/// The coders throw Swift's own errors while working, so that `Codable` code which catches
/// `DecodingError.keyNotFound` and the like keeps working; the public entry points turn
/// whatever escapes into a ``FirestoreError`` that names the field and keeps the Swift error
/// as its ``FirestoreError/underlyingError``. This marker tells the coders' own phrases
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

  /// The `FirestoreError` for an error that escaped decoding a `typeName`; the error itself
  /// (a `DecodingError`, or the decoded type's own) is its ``FirestoreError/underlyingError``.
  static func decodingFailure(_ error: any Error, decoding typeName: String) -> FirestoreError {
    if let error = error as? FirestoreError { return error }
    return FirestoreError(.invalidArgument, "cannot decode \(typeName): " + decodingText(error), underlyingError: error)
  }

  /// What went wrong while decoding, as it follows `cannot decode T: `.
  private static func decodingText(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "\(CodingPath.field(context.codingPath + [key])) is missing"
    case DecodingError.typeMismatch(let type, let context):
      return describe(context.codingPath, context, orElse: "does not match the expected type \(type)")
    case DecodingError.valueNotFound(let type, let context):
      return describe(context.codingPath, context, orElse: "expected \(type) but found null")
    case DecodingError.dataCorrupted(let context):
      return describe(context.codingPath, context.debugDescription, underlying: context.underlyingError)
    default:
      return "\(error)"
    }
  }

  /// The `FirestoreError` for an error that escaped encoding a `typeName`; the error itself
  /// (an `EncodingError`, or the encoded type's own) is its ``FirestoreError/underlyingError``.
  static func encodingFailure(_ error: any Error, encoding typeName: String) -> FirestoreError {
    if let error = error as? FirestoreError { return error }
    let text: String
    if case EncodingError.invalidValue(_, let context) = error {
      text = describe(context.codingPath, context.debugDescription, underlying: context.underlyingError)
    } else {
      text = "\(error)"
    }
    return FirestoreError(.invalidArgument, "cannot encode \(typeName): " + text, underlyingError: error)
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
