import FirestoreClient
import FirestoreWire
import Foundation

/// `export --partitions N`: a collection's documents read as ranges at once, written in
/// the order a plain export writes them.
///
/// Firestore partitions collection groups, not collections, so the split points come
/// from the group with the collection's ID; those inside the collection (a point deeper in
/// it stands for the collection's document above it) cut the collection into ranges by
/// document path. Each range is read by its own task into a temporary file, and the files
/// are copied to the output in order, so memory stays bounded and the output matches a
/// plain export line for line.
struct PartitionedExport {
  let collection: CollectionReference
  let context: CommandContext

  func run(_ desired: Int, output: LineFile, progress: ProgressLine) async throws {
    let bounds = try await splitDocuments(desired)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = bounds.indices.map { directory.appendingPathComponent("part-\($0).ndjson").path }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, range) in bounds.enumerated() {
        group.addTask { try await read(range, into: files[index]) }
      }
      // The first failure cancels the other ranges and is what the command reports.
      try await group.waitForAll()
    }
    for file in files { progress.advance(by: try output.append(contentsOfFile: file)) }
  }

  /// The ranges to read: consecutive (start, end-before) pairs of the collection's
  /// documents, `nil` meaning open.
  private func splitDocuments(_ desired: Int) async throws -> [(DocumentReference?, DocumentReference?)] {
    let partitions: [QueryPartition]
    do {
      partitions = try await context.db.collectionGroup(collection.collectionID).getPartitions(desired)
    } catch let error as FirestoreError where error.code == .unimplemented {
      throw error.replacingMessage(
        error.message + " (this server has no partitionQuery, as the Firestore emulator has not; export without --partitions)")
    }
    let depth = collection.path.slashSegments.count
    var splits: [DocumentReference] = []
    for partition in partitions {
      guard let point = partition.startAt else { continue }
      let segments = point.path.slashSegments
      guard segments.count > depth, segments.prefix(depth).elementsEqual(collection.path.slashSegments) else { continue }
      let document = collection.document(segments[depth])
      if splits.last?.path != document.path { splits.append(document) }
    }
    var bounds: [(DocumentReference?, DocumentReference?)] = []
    var start: DocumentReference?
    for split in splits {
      bounds.append((start, split))
      start = split
    }
    bounds.append((start, nil))
    return bounds
  }

  /// Writes the documents of one range, in path order, to `file`.
  private func read(_ range: (DocumentReference?, DocumentReference?), into file: String) async throws {
    var query = collection.order(by: FieldPath.documentID())
    if let start = range.0 { query = query.start(at: [start]) }
    if let end = range.1 { query = query.end(before: [end]) }
    let sink = try LineFile(creating: file)
    for try await document in query.stream() { try sink.writeLine(context.encoder.line(document)) }
    try sink.flush()
  }
}
