import FirestoreClient
import FirestoreWire

/// Writes NDJSON document lines (as `export` and `get` print them) through batched
/// commits: `import` and `--mock-data`.
///
/// Each document is a full `set`, so running the same import twice leaves the same data.
/// A line's format follows its key: `"data"` is extended JSON, `"fields"` REST mapping.
/// Lines with `"exists":false` and blank lines are skipped. Every line of a batch is
/// checked before the batch is committed; a bad line stops the import with the line named
/// (earlier batches stay written, and a re-run after the fix is safe).
struct DocumentImporter: Sendable {
  /// Writes per commit (Firestore accepts up to 500).
  static let batchSize = 500
  /// The client to write through.
  let firestore: Firestore
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String

  /// What an import did.
  struct Outcome: Sendable {
    /// Documents written.
    var written = 0
    /// Lines skipped because they describe missing documents.
    var skipped = 0
  }

  /// Imports every line of `reader`.
  func run(_ reader: LineReader, progress: ProgressLine) async throws -> Outcome {
    var outcome = Outcome()
    var pending: [(DocumentReference, [String: Value])] = []
    while let line = try reader.nextLine() {
      if line.allSatisfy(\.isWhitespace) { continue }
      let place = "line \(reader.lineNumber) of \(reader.name)"
      guard let (path, fields) = try parse(line, place: place) else {
        outcome.skipped += 1
        continue
      }
      pending.append((firestore.document(path), fields))
      if pending.count == Self.batchSize {
        try await commit(pending)
        outcome.written += pending.count
        progress.advance(by: pending.count)
        pending.removeAll(keepingCapacity: true)
      }
    }
    if !pending.isEmpty {
      try await commit(pending)
      outcome.written += pending.count
      progress.advance(by: pending.count)
    }
    return outcome
  }

  /// The path and fields of one line, or `nil` for a missing document.
  private func parse(_ line: String, place: String) throws -> (String, [String: Value])? {
    func bad(_ message: String) -> CLIFailure { CLIFailure("INVALID_ARGUMENT", "\(place): \(message)") }
    let json: JSONValue
    do {
      json = try JSONParser.parse(line)
    } catch {
      throw bad("not valid JSON: \(error)")
    }
    guard case .object = json else { throw bad("expected a JSON object per line, got \(json.kindName)") }
    guard case .string(let rawPath) = json["path"] else { throw bad("no \"path\" string") }
    let path: String
    do {
      path = try PathArgument.document(rawPath, command: "import")
    } catch {
      throw bad(error.message)
    }
    if json["exists"] == .bool(false) { return nil }
    let format: DataFormat
    let data: JSONValue
    if let d = json["data"] {
      (format, data) = (.json, d)
    } else if let f = json["fields"] {
      (format, data) = (.rest, f)
    } else {
      throw bad("no \"data\" (extended JSON) or \"fields\" (REST) member")
    }
    do {
      let decoder = InputDecoder(format: format, documentsRoot: documentsRoot)
      return (path, try format == .json ? decoder.fields(data) : Value.fields(from: data))
    } catch {
      throw bad("\(error)")
    }
  }

  /// Commits one batch, retrying the transient failures a full `set` may safely repeat.
  private func commit(_ writes: [(DocumentReference, [String: Value])]) async throws {
    var attempt = 0
    while true {
      let batch = firestore.batch()
      for (reference, fields) in writes {
        batch.setData(fields.mapValues { $0 as any Sendable }, forDocument: reference)
      }
      do {
        _ = try await batch.commit()
        return
      } catch let error as FirestoreError
        where attempt < 4 && [.unavailable, .aborted, .deadlineExceeded, .resourceExhausted].contains(error.code)
      {
        attempt += 1
        try await Task.sleep(for: .milliseconds(250 << attempt))
      }
    }
  }
}
