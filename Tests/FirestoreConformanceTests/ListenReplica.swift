@testable import FirestoreClient

/// What a listener believes, rebuilt only from the changes it was told about, with every
/// change that does not fit what came before (an add of a known document, a change or
/// removal of an unknown one, a snapshot whose documents differ from its changes).
struct ListenReplica {
  /// The integer field each document is summed up by.
  let field: String
  /// Document ID → the field's value (`-1` when absent).
  var documents: [String: Int] = [:]
  /// How many times each document was added.
  var added: [String: Int] = [:]
  var violations: [String] = []

  init(field: String) { self.field = field }

  mutating func apply(_ snapshot: QuerySnapshot) {
    for change in snapshot.documentChanges {
      let id = change.document.documentID
      let value = change.document.get(field) as? Int ?? -1
      switch change.type {
      case .added:
        if documents[id] != nil { violations.append("added \(id) twice") }
        added[id, default: 0] += 1
        documents[id] = value
      case .modified:
        if documents[id] == nil { violations.append("modified unknown \(id)") }
        documents[id] = value
      case .removed:
        if documents.removeValue(forKey: id) == nil { violations.append("removed unknown \(id)") }
      }
    }
    let listed = Dictionary(uniqueKeysWithValues: snapshot.documents.map { ($0.documentID, $0.get(field) as? Int ?? -1) })
    if listed != documents { violations.append("the snapshot lists \(listed), the changes add up to \(documents)") }
  }
}
