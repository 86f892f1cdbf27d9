extension RunQueryResponse {
  /// Reads one `:runQuery` element straight from JSON text, as ``init(json:)`` reads it
  /// from a parsed tree; members it does not know (`explainMetrics`, …) are checked and
  /// skipped.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("RunQueryResponse must be a JSON object, got \(reader.nextKindName())")
    }
    self.init()
    guard try reader.beginObject() else { return }
    var doneSeen = false
    repeat {
      // A repeated member is checked and skipped: the first one counts, as in the tree decoder.
      switch try reader.readKey() {
      case "document" where document == nil: document = try Document(reading: &reader)
      case "readTime" where readTime == nil: readTime = try reader.readTimestamp("readTime")
      case "transaction" where transaction == nil: transaction = try reader.readString("transaction")
      case "skippedResults" where skippedResults == nil:
        let text = try reader.readNumberOrStringText("skippedResults")
        guard let count = Int64(text) else { throw WireFormatError("skippedResults \"\(text)\" is not an integer") }
        skippedResults = count
      case "done" where !doneSeen:
        done = try reader.readBool("done")
        doneSeen = true
      default: try reader.skipValue()
      }
    } while try reader.nextMember()
  }

  /// Decodes one element from a complete JSON text (a piece of a streamed reply).
  package init(jsonBytes bytes: UnsafeBufferPointer<UInt8>) throws {
    var reader = JSONReader(bytes)
    self = try RunQueryResponse(reading: &reader)
    try reader.finish()
  }

  /// Decodes a whole `:runQuery` reply: a JSON array of elements.
  ///
  /// ```swift
  /// let elements = try body.withUnsafeBytes { try RunQueryResponse.decodeArray($0.bindMemory(to: UInt8.self)) }
  /// ```
  package static func decodeArray(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [RunQueryResponse] {
    try JSONReader.decodeArray(bytes, "a runQuery reply") { try RunQueryResponse(reading: &$0) }
  }
}

extension BatchGetResponse {
  /// Reads one `:batchGet` element straight from JSON text, as ``init(json:)`` reads it.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("BatchGetDocumentsResponse must be a JSON object, got \(reader.nextKindName())")
    }
    var found: Document?
    var missing: String?
    var transaction: String?
    var readTime: Timestamp?
    if try reader.beginObject() {
      repeat {
        switch try reader.readKey() {
        // A repeated member is checked and skipped: the first one counts.
        case "found" where found == nil: found = try Document(reading: &reader)
        case "missing" where missing == nil: missing = try reader.readString("missing")
        case "transaction" where transaction == nil: transaction = try reader.readString("transaction")
        case "readTime" where readTime == nil: readTime = try reader.readTimestamp("readTime")
        default: try reader.skipValue()
        }
      } while try reader.nextMember()
    }
    // The same precedence as the tree decoder: found, then missing, then transaction.
    if let found {
      self.init(result: .found(found), readTime: readTime)
    } else if let missing {
      self.init(result: .missing(missing), readTime: readTime)
    } else if let transaction {
      self.init(result: .transaction(transaction), readTime: readTime)
    } else {
      throw WireFormatError("a batchGet element needs found, missing or transaction")
    }
  }

  /// Decodes a whole `:batchGet` reply: a JSON array of elements.
  package static func decodeArray(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [BatchGetResponse] {
    try JSONReader.decodeArray(bytes, "a batchGet reply") { try BatchGetResponse(reading: &$0) }
  }
}

extension CommitResponse {
  /// Reads a `:commit` reply straight from JSON text, as ``init(json:)`` reads it from a
  /// parsed tree: every write's result without a tree of the whole reply first.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("CommitResponse must be a JSON object, got \(reader.nextKindName())")
    }
    var writeResults: [WriteResult]?
    var commitTime: Timestamp?
    if try reader.beginObject() {
      repeat {
        switch try reader.readKey() {
        // A repeated member is checked and skipped: the first one counts.
        case "writeResults" where writeResults == nil:
          writeResults = try reader.readArray("writeResults") { try WriteResult(reading: &$0) }
        case "commitTime" where commitTime == nil: commitTime = try reader.readTimestamp("commitTime")
        default: try reader.skipValue()
        }
      } while try reader.nextMember()
    }
    self.init(writeResults: writeResults ?? [], commitTime: commitTime)
  }

  /// Decodes a whole `:commit` reply.
  package init(jsonBytes bytes: UnsafeBufferPointer<UInt8>) throws {
    var reader = JSONReader(bytes)
    self = try CommitResponse(reading: &reader)
    try reader.finish()
  }
}

extension CommitResponse.WriteResult {
  /// Reads one write's result, as the tree decoder of ``CommitResponse`` does.
  package init(reading reader: inout JSONReader) throws {
    guard reader.peek() == UInt8(ascii: "{") else {
      throw WireFormatError("CommitResponse.writeResults[] must be a JSON object, got \(reader.nextKindName())")
    }
    var updateTime: Timestamp?
    var transformResults: [Value]?
    if try reader.beginObject() {
      repeat {
        switch try reader.readKey() {
        case "updateTime" where updateTime == nil: updateTime = try reader.readTimestamp("updateTime")
        case "transformResults" where transformResults == nil:
          transformResults = try reader.readArray("transformResults") { try Value(reading: &$0) }
        default: try reader.skipValue()
        }
      } while try reader.nextMember()
    }
    self.init(updateTime: updateTime, transformResults: transformResults ?? [])
  }
}
