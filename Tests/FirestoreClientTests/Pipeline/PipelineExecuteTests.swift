import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Pipeline execute")
struct PipelineExecuteTests {
  static let path = "/v1/projects/p/databases/(default)/documents:executePipeline"

  private func client(_ reply: ScriptedTransport.Response, body: String? = nil) -> (Firestore, ScriptedTransport) {
    let transport = ScriptedTransport([.init(method: "POST", path: Self.path, body: body, response: reply)])
    return (Offline.firestore(transport), transport)
  }

  @Test("results from every element of the streamed reply, in order, with the first execution time")
  func results() async throws {
    let reply = #"""
      [{"results":[{"name":"projects/p/databases/(default)/documents/books/b1","fields":{"title":{"stringValue":"Dune"},"meta":{"mapValue":{"fields":{"pages":{"integerValue":"412"}}}},"gone":{"nullValue":null}},"createTime":"2024-01-01T00:00:00Z","updateTime":"2024-01-02T00:00:00Z"}],"executionTime":"2024-05-06T07:08:09Z"},
       {"results":[{"fields":{"total":{"doubleValue":2.5}}}],"executionTime":"2024-05-06T07:08:10Z"}]
      """#
    let (db, transport) = client(
      .json(200, reply),
      body:
        #"{"structuredPipeline":{"pipeline":{"stages":[{"name":"collection","args":[{"referenceValue":"/books"}]},{"name":"limit","args":[{"integerValue":"2"}]}]}}}"#
    )
    let snapshot = try await db.pipeline().collection("books").limit(2).execute()
    #expect(transport.unmetExpectations.isEmpty)
    #expect(snapshot.executionTime == (try Timestamp(rfc3339: "2024-05-06T07:08:09Z")))
    #expect(snapshot.explainStats == nil)
    #expect(snapshot.results.count == 2)
    let book = snapshot.results[0]
    #expect(book.ref?.path == "books/b1" && book.id == "b1")
    #expect(book.createTime == (try Timestamp(rfc3339: "2024-01-01T00:00:00Z")))
    #expect(book.get("title") as? String == "Dune")
    #expect(book.get("meta.pages") as? Int64 == 412)
    #expect(book.get(Field("meta.pages")) as? Int == 412)
    #expect(book.get(FieldPath(["meta", "pages"])) as? Int == 412)
    #expect(book.get("gone") == nil && book.get("missing") == nil)
    #expect(book.data.keys.sorted() == ["gone", "meta", "title"])
    #expect(book.data["gone"]! == nil)
    let row = snapshot.results[1]
    #expect(row.ref == nil && row.id == nil && row.createTime == nil && row.updateTime == nil)
    #expect(row.get("total") as? Double == 2.5)
  }

  @Test("explain options go in the pipeline's options; the explanation comes back on the last element")
  func explain() async throws {
    let reply = #"""
      [{"executionTime":"2024-05-06T07:08:09Z"},
       {"explainStats":{"data":{"@type":"type.googleapis.com/google.protobuf.StringValue","value":"plan: scan"}}}]
      """#
    let (db, _) = client(
      .json(200, reply),
      body:
        #"{"structuredPipeline":{"pipeline":{"stages":[{"name":"database"}]},"options":{"explain_options":{"mapValue":{"fields":{"mode":{"stringValue":"analyze"}}}}}},"readTime":"2024-01-01T00:00:00Z"}"#
    )
    let snapshot = try await db.pipeline().database().execute(
      readTime: try Timestamp(rfc3339: "2024-01-01T00:00:00Z"), explainOptions: PipelineExplainOptions())
    #expect(snapshot.explainStats == "plan: scan")
    #expect(snapshot.results.isEmpty)
  }

  @Test("inputs the backend would refuse are refused before any request")
  func refusedBeforeSending() async throws {
    let (db, transport) = Offline.noNetwork()
    let other = Firestore(projectID: "other", settings: FirestoreSettings.emulator(host: "127.0.0.1:1"))
    let cases: [(String, Pipeline)] = [
      ("subcollection alone", Subcollection("reviews")),
      ("duplicate output name", db.pipeline().collection("c").select([Field("a").as("x"), Field("b").as("x")])),
      ("duplicate aggregate name", db.pipeline().collection("c").aggregate([CountAll().as("n"), Field("a").sum().as("n")])),
      ("document path as collection", db.pipeline().collection("c/d")),
      ("invalid field path", db.pipeline().collection("c").where(Field("a..b").exists())),
      ("reference to another database", db.pipeline().collection("c").where(Field("r").equal(other.document("c/d")))),
      ("collection of another database", db.pipeline().collection(other.collection("c"))),
      ("a type that is not one of ours", db.pipeline().collection("c").where(Field("a").equal(ForeignExpression()))),
      ("an unsupported constant", db.pipeline().collection("c").where(Field("a").equal(Date.distantPast...Date.now))),
    ]
    for (what, pipeline) in cases {
      await #expect(throws: FirestoreError.self, "\(what)") { try await pipeline.execute() }
      do {
        _ = try await pipeline.execute()
      } catch let error as FirestoreError {
        #expect(error.code == .invalidArgument, "\(what): \(error)")
      }
    }
    #expect(transport.requests.isEmpty)
  }

  @Test("a reply without an execution time, or that is not an array, is the server's fault")
  func malformedReplies() async throws {
    for body in [
      #"[{"results":[]}]"#, #"{"results":[]}"#,
      #"[{"results":[{"fields":{"a":{"bogusValue":1}}}],"executionTime":"2024-01-01T00:00:00Z"}]"#,
    ] {
      let (db, _) = client(.json(200, body))
      do {
        _ = try await db.pipeline().database().execute()
        Issue.record("\(body) was accepted")
      } catch let error as FirestoreError {
        #expect(error.code == .internal, "\(body): \(error)")
      }
    }
  }

  @Test("the backend's error is the caller's, by its code")
  func serverError() async throws {
    let (db, _) = client(
      .json(400, #"{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"Pipelines need the Enterprise edition."}}"#))
    do {
      _ = try await db.pipeline().database().execute()
      Issue.record("the error was not thrown")
    } catch let error as FirestoreError {
      #expect(error.code == .failedPrecondition)
      #expect(error.message.contains("Enterprise"))
    }
  }

  @Test("a chain of one operator is one call; a different operator nests")
  func operatorChains() throws {
    let (db, _) = Offline.noNetwork()
    let a = Field("a").exists()
    let b = Field("b").exists()
    let c = Field("c").exists()
    func names(_ condition: BooleanExpression) throws -> String {
      let request = try db.pipeline().database().where(condition).request(firestore: db)
      guard case .function(let f) = request.stages[1].args[0] else { return "?" }
      return f.name + "/" + String(f.args.count)
    }
    #expect(try names(a && b && c) == "and/3")
    #expect(try names(a || b || c) == "or/3")
    #expect(try names((a && b) || c) == "or/2")
    #expect(try names(a && (b || c)) == "and/2")
    #expect(try names(!a) == "not/1")
  }
}

private struct ForeignExpression: FirestoreClient.Expression {}
