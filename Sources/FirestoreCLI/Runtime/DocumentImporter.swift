import FirestoreClient
import FirestoreWire

/// Writes NDJSON document lines (as `export` and `get` print them), or a bundle's
/// documents, through a ``BulkWriter``: `import` and `--mock-data`.
///
/// Each document is a full `set`, so running the same import twice leaves the same data
/// (and the bulk writer may safely retry any of them). A line's format follows its key:
/// `"data"` is extended JSON, `"fields"` REST mapping. Lines with `"exists":false` and
/// blank lines are skipped. A bad line stops the import with the line named: the lines
/// before it are still written (a re-run after the fix is safe), nothing after it is. A
/// write the server refuses stops the import with the document named, once the writes
/// already sent have finished.
struct DocumentImporter: Sendable {
  /// Writes queued but not yet confirmed before reading pauses, so that a huge input is
  /// never held in memory at once.
  static let window = 2_000
  /// The client to write through.
  let firestore: Firestore
  /// `projects/{p}/databases/{d}/documents`.
  let documentsRoot: String
  /// Whether to pace the writes with Firestore's 500/50/5 ramp-up (production); the mock
  /// and the emulator take them unthrottled.
  var rampsUp = true

  /// What an import did.
  struct Outcome: Sendable {
    /// Documents written.
    var written = 0
    /// Lines skipped because they describe missing documents.
    var skipped = 0
  }

  /// One document to write, or one left out.
  enum Item {
    /// A document's full data; `place` names where it came from, for errors.
    case document(path: String, fields: [String: Value], place: String)
    /// A missing document, which is not written.
    case skipped
  }

  /// Imports every line of `reader`.
  func run(_ reader: LineReader, progress: ProgressLine) async throws -> Outcome {
    try await run(progress: progress) {
      while let line = try reader.nextLine() {
        if line.allSatisfy(\.isWhitespace) { continue }
        let place = "line \(reader.lineNumber) of \(reader.name)"
        guard let (path, fields) = try parse(line, place: place) else { return .skipped }
        return .document(path: path, fields: fields, place: place)
      }
      return nil
    }
  }

  /// Imports the documents of a Firestore bundle (written to their paths in this
  /// database, whatever project they were read from); documents the bundle reports
  /// missing are skipped, and its named queries (a client-side thing) are left out.
  func run(bundle bytes: [UInt8], name: String, progress: ProgressLine) async throws -> Outcome {
    var reader = BundleReader(bytes)
    var index = 0
    return try await run(progress: progress) {
      do {
        while let (element, _) = try reader.next() {
          index += 1
          switch element {
          case .document(let document):
            let place = "element \(index) of \(name)"
            let segments = document.name.slashSegments
            // projects/{p}/databases/{d}/documents/{path}
            guard segments.count > 5, segments[4] == "documents" else {
              throw CLIFailure("INVALID_ARGUMENT", "\(place): \"\(document.name)\" is not a document name")
            }
            return .document(path: segments.dropFirst(5).joined(separator: "/"), fields: document.fields, place: place)
          case .documentMetadata(let metadata) where !metadata.exists:
            return .skipped
          default:
            continue
          }
        }
        return nil
      } catch let error as WireFormatError {
        throw CLIFailure("INVALID_ARGUMENT", "\(name) is not a well-formed Firestore bundle: \(error)")
      }
    }
  }

  /// Writes the items `next` yields until it returns `nil`.
  private func run(progress: ProgressLine, next: () throws -> Item?) async throws -> Outcome {
    let writer = firestore.bulkWriter(options: rampsUp ? BulkWriterOptions() : .unlimited)
    var outcome = Outcome()
    var pending: [BulkWriteOperation] = []
    var confirmed = 0  // index of the first operation in `pending` not yet awaited
    do {
      while let item = try next() {
        guard case .document(let path, let fields, let place) = item else {
          outcome.skipped += 1
          continue
        }
        do {
          pending.append(try writer.setData(fields.mapValues { $0 as any Sendable }, forDocument: firestore.document(path)))
        } catch {
          throw CLIFailure("INVALID_ARGUMENT", "\(place): \(error.message)")
        }
        // Count what has finished so far, so progress moves (and a failure stops) early.
        while confirmed < pending.count && pending[confirmed].isFinished {
          _ = try await Self.confirm(pending[confirmed])
          confirmed += 1
          outcome.written += 1
          progress.advance()
        }
        if pending.count - confirmed >= Self.window {
          // Wait for the older half; the writer keeps working on the newer one.
          let target = pending.count - Self.window / 2
          while confirmed < target {
            _ = try await Self.confirm(pending[confirmed])
            confirmed += 1
            outcome.written += 1
            progress.advance()
          }
        }
        if confirmed >= Self.window {
          pending.removeFirst(confirmed)
          confirmed = 0
        }
      }
    } catch {
      // Whatever was queued before the failure still goes out (and is never half-sent).
      await writer.close()
      throw error
    }
    await writer.close()
    for operation in pending[confirmed...] {
      _ = try await Self.confirm(operation)
      outcome.written += 1
      progress.advance()
    }
    return outcome
  }

  /// The result of one write, its error naming the document.
  private static func confirm(_ operation: BulkWriteOperation) async throws -> WriteResult {
    do {
      return try await operation.result()
    } catch {
      if error.message.contains(operation.document.path) { throw error }
      throw error.replacingMessage("document \(operation.document.path): \(error.message)")
    }
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
}
