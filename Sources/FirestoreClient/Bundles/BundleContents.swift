import FirestoreWire

/// A bundle read and checked whole before anything of it is applied.
struct BundleContents {
  var metadata: BundleMetadata
  var queries: [NamedQuery] = []
  var documents: [(name: String, document: Document?, readTime: Timestamp)] = []
  /// For each document, the bytes after the metadata up to its end: how far loading has
  /// read when it has that document.
  var documentEnds: [Int64] = []

  /// Reads the elements of `bytes` and checks them: metadata first, then named queries and
  /// documents of the database under `documentsRoot`, each existing document's data right
  /// after its metadata, and the counts the metadata announces.
  ///
  /// - Parameter metadataRead: called with the metadata once it is read, before the rest.
  /// - Throws: `invalidArgument` naming the problem.
  static func read(
    _ bytes: [UInt8], documentsRoot: String, metadataRead: (BundleMetadata) -> Void = { _ in }
  ) throws(FirestoreError) -> BundleContents {
    var reader = BundleReader(bytes)
    do {
      guard let (first, _) = try reader.next() else { throw FirestoreError.invalidArgument("the bundle is empty") }
      guard case .metadata(let metadata) = first else {
        throw FirestoreError.invalidArgument("not a Firestore bundle: its first element is not the bundle's metadata")
      }
      metadataRead(metadata)
      var contents = BundleContents(metadata: metadata)
      var bytesAfterMetadata = 0
      var awaiting: BundledDocumentMetadata?
      while let (element, size) = try reader.next() {
        bytesAfterMetadata += size
        if let expected = awaiting {
          guard case .document(let document) = element, document.name == expected.name else {
            throw FirestoreError.invalidArgument("bundle: document \(expected.name) is marked existing but its data does not follow")
          }
          contents.documents.append((document.name, document, expected.readTime))
          contents.documentEnds.append(Int64(bytesAfterMetadata))
          awaiting = nil
          continue
        }
        switch element {
        case .metadata: throw FirestoreError.invalidArgument("bundle: a second metadata element at byte \(reader.offset - size)")
        case .namedQuery(let query):
          guard query.parent == documentsRoot || query.parent.hasBytePrefix(documentsRoot + "/") else {
            throw FirestoreError.invalidArgument("bundle: query \"\(query.name)\" belongs to \(query.parent), not to this database")
          }
          contents.queries.append(query)
        case .documentMetadata(let document):
          guard document.name.hasBytePrefix(documentsRoot + "/") else {
            throw FirestoreError.invalidArgument("bundle: document \(document.name) is not in this database (\(documentsRoot))")
          }
          if document.exists {
            awaiting = document
          } else {
            contents.documents.append((document.name, nil, document.readTime))
            contents.documentEnds.append(Int64(bytesAfterMetadata))
          }
        case .document(let document):
          throw FirestoreError.invalidArgument("bundle: document \(document.name) comes without its metadata before it")
        }
      }
      if let awaiting { throw FirestoreError.invalidArgument("bundle: it ends before the data of document \(awaiting.name)") }
      if UInt64(bytesAfterMetadata) != metadata.totalBytes {
        throw FirestoreError.invalidArgument(
          "bundle: its metadata announces \(metadata.totalBytes) bytes after it, but \(bytesAfterMetadata) follow")
      }
      if contents.documents.count != Int(metadata.totalDocuments) {
        throw FirestoreError.invalidArgument(
          "bundle: its metadata announces \(metadata.totalDocuments) documents, but it holds \(contents.documents.count)")
      }
      return contents
    } catch let error as FirestoreError {
      throw error
    } catch {
      throw .invalidArgument("not a well-formed Firestore bundle: \(error)")
    }
  }
}
