import Testing

@testable import FirestoreWire

@Suite("Firestore's storage-size rules")
struct DocumentSizeTests {
  @Test("the documentation's worked example: a name of 44 bytes, a document of 147")
  func documentedExample() {
    #expect(DocumentSize.nameSize("users/jeff/tasks/my_task_id") == 44)
    let fields: [String: Value] = [
      "type": .string("Personal"), "done": .boolean(false), "priority": .integer(1),
      "description": .string("Learn Cloud Firestore"),
    ]
    #expect(DocumentSize.mapSize(fields) == 71)
    #expect(DocumentSize.of(name: "users/jeff/tasks/my_task_id", fields: fields) == 147)
    let name = "projects/p/databases/(default)/documents/users/jeff/tasks/my_task_id"
    #expect(DocumentSize.of(documentName: name, fields: fields) == 147)
  }

  @Test("a name counts UTF-8 bytes per segment and skips empty ones")
  func nameBytes() {
    // "é" is two bytes, "😀" four.
    #expect(DocumentSize.nameSize("c/é😀") == 16 + 2 + 7)
    #expect(DocumentSize.nameSize("/a//b/") == 16 + 2 + 2)
    #expect(DocumentSize.nameSize("") == 16)
  }

  @Test("a reference counts as the name it points to, not its resource prefix")
  func referenceValue() {
    let full = "projects/p/databases/(default)/documents/users/jeff/tasks/my_task_id"
    #expect(DocumentSize.size(.reference(full)) == 44)
    #expect(DocumentSize.size(.reference("projects/p/databases/documents/documents/a/b")) == 16 + 2 + 2)
  }
}
