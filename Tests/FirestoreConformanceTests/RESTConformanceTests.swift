import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The REST endpoints the client does not use itself (create, patch, delete by URL), called
/// raw, as curl would: the mock must answer them as the emulator does.
@Suite("Conformance: raw REST endpoints")
struct RESTConformanceTests {
  private struct Raw {
    let backend: Backend
    let collection: String

    init(_ backend: Backend, _ hint: String = #function) {
      self.backend = backend
      collection = backend.collection(hint).path
    }

    var base: String { "\(backend.baseURL)/v1/projects/\(Backend.projectID)/databases/(default)/documents" }

    func call(_ method: String, _ suffix: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
      let request = HTTPRequest(
        method: method, url: URL(string: base + suffix)!, headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
        body: body.map { Data($0.utf8) })
      let response = try await backend.transport.send(request)
      return (response.status, try? JSONParser.parse(try await response.collectBody()))
    }
  }

  @Test("create with and without documentId; a second create is ALREADY_EXISTS", arguments: Backend.all)
  func create(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let (status, doc) = try await raw.call("POST", "/\(raw.collection)?documentId=d1", #"{"fields":{"a":{"integerValue":"1"}}}"#)
    #expect(status == 200)
    #expect(doc?["fields"]?["a"] == .object([("integerValue", .string("1"))]))
    #expect(doc?["createTime"] != nil && doc?["updateTime"] != nil)
    let (again, error) = try await raw.call("POST", "/\(raw.collection)?documentId=d1", #"{"fields":{}}"#)
    #expect(again == 409)
    #expect(error?["error"]?["status"]?.stringValue == "ALREADY_EXISTS")
    let (auto, created) = try await raw.call("POST", "/\(raw.collection)", #"{"fields":{}}"#)
    #expect(auto == 200)
    #expect(created?["name"]?.stringValue?.split(separator: "/").last?.count == 20)
  }

  @Test("patch: replace, update mask (absent masked fields deleted), preconditions, response mask", arguments: Backend.all)
  func patch(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let path = "/\(raw.collection)/p1"
    #expect(
      try await raw.call(
        "PATCH", path,
        #"{"fields":{"a":{"integerValue":"1"},"b":{"integerValue":"2"},"m":{"mapValue":{"fields":{"x":{"integerValue":"3"}}}}}}"#
      ).0 == 200)
    let (status, doc) = try await raw.call(
      "PATCH", path + "?updateMask.fieldPaths=a&updateMask.fieldPaths=m.x&updateMask.fieldPaths=c&mask.fieldPaths=c",
      #"{"fields":{"c":{"stringValue":"new"}}}"#)
    #expect(status == 200)
    #expect(doc?["fields"] == .object([("c", .object([("stringValue", .string("new"))]))]))
    let (_, full) = try await raw.call("GET", path)
    let fields = try Value.fields(from: full?["fields"])
    #expect(fields == ["b": .integer(2), "c": .string("new"), "m": .map([:])])
    #expect(try await raw.call("PATCH", "/\(raw.collection)/missing?currentDocument.exists=true", #"{"fields":{}}"#).0 == 404)
    #expect(try await raw.call("PATCH", path + "?currentDocument.exists=false", #"{"fields":{}}"#).0 == 409)
    let (stale, error) = try await raw.call("PATCH", path + "?currentDocument.updateTime=2020-01-01T00:00:00Z", #"{"fields":{}}"#)
    #expect(stale == 400)
    #expect(error?["error"]?["status"]?.stringValue == "FAILED_PRECONDITION")
  }

  @Test("values Firestore cannot store are refused with the emulator's messages, replacing or through a mask", arguments: Backend.all)
  func invalidValues(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let path = "/\(raw.collection)/v1"
    let cases: [(String, String)] = [
      (
        #"{"arrayValue":{"values":[{"arrayValue":{"values":[{"integerValue":"1"}]}}]}}"#, "Cannot convert an array value in an array value."
      ),
      (#"{"geoPointValue":{"latitude":1000,"longitude":0}}"#, "Geo point latitude '1000.0' outside permitted range -90.0 to 90.0."),
      (#"{"geoPointValue":{"latitude":0,"longitude":200}}"#, "Geo point longitude '200.0' outside permitted range -180.0 to 180.0."),
      (#"{"referenceValue":"nonsense"}"#, #"Resource name "nonsense" lacks "projects" at index 0."#),
    ]
    for (value, message) in cases {
      for suffix in ["", "?updateMask.fieldPaths=x"] {
        let (status, error) = try await raw.call("PATCH", path + suffix, #"{"fields":{"x":"# + value + "}}")
        #expect(status == 400, "\(value)\(suffix)")
        #expect(error?["error"]?["status"]?.stringValue == "INVALID_ARGUMENT", "\(value)\(suffix)")
        #expect(error?["error"]?["message"]?.stringValue == message, "\(value)\(suffix): \(String(describing: error))")
      }
    }
    func nested(_ levels: Int) -> String {
      (0..<levels).reduce(#"{"integerValue":"1"}"#) { inner, _ in #"{"mapValue":{"fields":{"m":"# + inner + "}}}" }
    }
    let (deep, error) = try await raw.call("PATCH", path, #"{"fields":{"x":"# + nested(21) + "}}")
    #expect(deep == 400)
    #expect(error?["error"]?["message"]?.stringValue == "Property x contains an invalid nested entity.", "\(String(describing: error))")
    #expect(try await raw.call("GET", path).0 == 404, "nothing was stored")
    #expect(try await raw.call("PATCH", path, #"{"fields":{"x":"# + nested(20) + "}}").0 == 200, "20 levels are allowed")
  }

  @Test("get with a mask, delete with preconditions, and the error body of a missing document", arguments: Backend.all)
  func getAndDelete(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let path = "/\(raw.collection)/g1"
    _ = try await raw.call("PATCH", path, #"{"fields":{"a":{"integerValue":"1"},"b":{"booleanValue":true}}}"#)
    let (_, masked) = try await raw.call("GET", path + "?mask.fieldPaths=b")
    #expect(masked?["fields"] == .object([("b", .object([("booleanValue", .bool(true))]))]))
    #expect(try await raw.call("DELETE", "/\(raw.collection)/nothing").0 == 200)
    #expect(try await raw.call("DELETE", "/\(raw.collection)/nothing?currentDocument.exists=true").0 == 404)
    #expect(try await raw.call("DELETE", path).0 == 200)
    let (status, error) = try await raw.call("GET", path)
    #expect(status == 404)
    #expect(error?["error"]?["code"] == .number("404"))
    #expect(error?["error"]?["status"]?.stringValue == "NOT_FOUND")
  }

  @Test("batchGet and runQuery open a transaction inline; its first element carries the ID", arguments: Backend.all)
  func inlineTransactions(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let root = "projects/\(Backend.projectID)/databases/(default)/documents"
    _ = try await raw.call("PATCH", "/\(raw.collection)/t1", #"{"fields":{"n":{"integerValue":"1"}}}"#)
    let (_, batch) = try await raw.call(
      "POST", ":batchGet",
      #"{"documents":["\#(root)/\#(raw.collection)/t1","\#(root)/\#(raw.collection)/zz"],"newTransaction":{"readOnly":{}}}"#)
    let elements = try #require(batch?.arrayValue)
    #expect(elements.count == 3)
    #expect(elements.first?["transaction"]?.stringValue != nil)
    #expect(elements[2]["missing"]?.stringValue == "\(root)/\(raw.collection)/zz")
    let (_, query) = try await raw.call(
      "POST", ":runQuery", #"{"structuredQuery":{"from":[{"collectionId":"\#(raw.collection)"}]},"newTransaction":{"readOnly":{}}}"#)
    let rows = try #require(query?.arrayValue)
    #expect(rows.first?["transaction"]?.stringValue != nil)
    #expect(rows.last?["done"] == .bool(true))
    let (status, error) = try await raw.call("POST", ":rollback", #"{"transaction":"AAAAAAAAAAAA"}"#)
    #expect(status == 400 && error?["error"]?["message"]?.stringValue == "Invalid transaction.")
  }

  @Test("batchWrite: each write applied on its own with its own status; one document twice refuses the request", arguments: Backend.all)
  func batchWrite(_ backend: Backend) async throws {
    let raw = Raw(backend)
    let root = "projects/\(Backend.projectID)/databases/(default)/documents/\(raw.collection)"
    _ = try await raw.call("PATCH", "/\(raw.collection)/old", #"{"fields":{"n":{"integerValue":"1"}}}"#)
    let (status, reply) = try await raw.call(
      "POST", ":batchWrite",
      #"{"writes":[{"update":{"name":"\#(root)/old","fields":{}},"currentDocument":{"exists":false}},"#
        + #"{"update":{"name":"\#(root)/new","fields":{"n":{"integerValue":"2"}}}},{"delete":"\#(root)/gone"},"#
        + #"{"update":{"name":"\#(root)/missing","fields":{}},"updateMask":{"fieldPaths":["n"]},"currentDocument":{"exists":true}}]}"#)
    #expect(status == 200)
    let codes = try #require(reply?["status"]?.arrayValue).map { $0["code"] ?? .number("0") }
    #expect(codes == [.number("6"), .number("0"), .number("0"), .number("5")])
    let results = try #require(reply?["writeResults"]?.arrayValue)
    #expect(results.map { $0["updateTime"] != nil } == [false, true, false, false])
    #expect(try await raw.call("GET", "/\(raw.collection)/new").0 == 200)
    let (twice, error) = try await raw.call(
      "POST", ":batchWrite", #"{"writes":[{"update":{"name":"\#(root)/a","fields":{}}},{"delete":"\#(root)/a"}]}"#)
    #expect(twice == 400)
    #expect(error?["error"]?["status"]?.stringValue == "INVALID_ARGUMENT")
    #expect(error?["error"]?["message"]?.stringValue == "the same document cannot be written more than once in a single request")
    #expect(try await raw.call("GET", "/\(raw.collection)/a").0 == 404)
  }
}
