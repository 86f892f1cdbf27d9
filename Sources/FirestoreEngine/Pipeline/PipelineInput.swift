import FirestoreWire

/// Which documents a pipeline's first stage reads, for the store to fetch.
public enum PipelineInput: Sendable, Equatable {
  /// The documents directly in the collection `collectionID` under `parent` (a slash path
  /// below the database's documents root, empty for the root).
  case collection(parent: String, collectionID: String)
  /// The documents in every collection named `collectionID`, at any depth.
  case collectionGroup(String)
  /// Every document of the database.
  case database
  /// These documents (slash paths), in this order; missing ones are left out.
  case documents([String])
  /// Rows given in the request rather than read.
  case literals([[String: Value]])

  /// The input the first of `stages` names.
  ///
  /// - Throws: `invalidArgument` when the first stage is not a source, or a source's
  ///   arguments are not what the official clients send.
  public static func of(_ stages: [PipelineStage]) throws(PipelineEvaluationError) -> PipelineInput {
    guard let first = stages.first else { throw .invalid("A pipeline must have at least one stage.") }
    switch first.name {
    case "collection":
      guard first.args.count == 1, case .constant(.reference(let path)) = first.args[0] else {
        throw .invalid("The collection stage takes one reference argument.")
      }
      let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(path.hasPrefix("/") ? 1 : 0)
        .map(String.init)
      guard segments.count % 2 == 1, !segments.contains(where: \.isEmpty) else {
        throw .invalid("Invalid collection path \"\(path)\".")
      }
      return .collection(parent: segments.dropLast().joined(separator: "/"), collectionID: segments.last!)
    case "collection_group":
      guard first.args.count == 2, case .constant(.reference(let parent)) = first.args[0],
        case .constant(.string(let id)) = first.args[1], !id.isEmpty, !id.contains("/")
      else { throw .invalid("The collection_group stage takes a reference and a collection ID.") }
      guard parent.isEmpty || parent == "/" else {
        throw PipelineEvaluationError(.unimplemented, "The mock runs collection_group only over the whole database.")
      }
      return .collectionGroup(id)
    case "database":
      guard first.args.isEmpty else { throw .invalid("The database stage takes no arguments.") }
      return .database
    case "documents":
      var paths: [String] = []
      for arg in first.args {
        guard case .constant(.reference(let path)) = arg else { throw .invalid("The documents stage takes references.") }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(path.hasPrefix("/") ? 1 : 0)
        guard segments.count % 2 == 0, !segments.isEmpty, !segments.contains(where: \.isEmpty) else {
          throw .invalid("Invalid document path \"\(path)\".")
        }
        paths.append(segments.joined(separator: "/"))
      }
      return .documents(paths)
    case "literals":
      var rows: [[String: Value]] = []
      for arg in first.args {
        guard case .map(let fields) = arg.expressionMap ?? .constant(.null) else {
          throw .invalid("The literals stage takes maps.")
        }
        var row: [String: Value] = [:]
        for (key, expression) in fields {
          try PipelineExpressionEvaluator.check(expression)
          switch PipelineExpressionEvaluator(row: Document(name: "")).evaluate(expression) {
          case .value(let value): row[key] = value
          case .absent: break
          case .error(let message): throw .invalid(message)
          }
        }
        rows.append(row)
      }
      return .literals(rows)
    default:
      throw .invalid("The first stage must be a source (collection, collection_group, database, documents), not \(first.name).")
    }
  }
}

extension PipelineExpression {
  /// This expression as a `.map` of expressions, when it is a map (constant or not).
  var expressionMap: PipelineExpression? {
    switch self {
    case .map: return self
    case .constant(.map(let fields)): return .map(fields.mapValues(PipelineExpression.constant))
    default: return nil
    }
  }
}
