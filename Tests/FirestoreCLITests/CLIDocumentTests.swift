import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

extension CLITests {
  @Suite("firestore: documents (get, set, create, update, delete, add)")
  struct CLIDocumentTests {
    static let allKinds =
      #"{"arr":[1,2.5,"x",null,{"m":true}],"b":true,"blob":{"$bytes":"AAEC/w=="},"d":2.0,"geo":{"$geopoint":[48.85,2.35]},"i":-7,"inf":{"$double":"-Infinity"},"map":{"$map":{"$timestamp":"literal"}},"nan":{"$double":"NaN"},"nested":{"deep":{"s":"é😀"}},"nil":null,"ref":{"$reference":"cities/c1"},"t":{"$timestamp":"2024-01-02T03:04:05.123456Z"}}"#

    @Test("set then get: every value kind comes back exactly; rest output and input", arguments: Backend.cli)
    func valuesRoundTrip(_ backend: Backend) async throws {
      let project = backend.project()
      let set = try await backend.run(project, ["set", "kinds/k1", Self.allKinds])
      #expect(set.status == 0, "\(set)")
      #expect(set.json.first?["path"] == .string("kinds/k1"))
      #expect(set.json.first?["updateTime"]?.stringValue != nil)
      let get = try await backend.run(project, ["get", "kinds/k1"])
      #expect(get.status == 0, "\(get)")
      let line = try #require(get.json.first)
      #expect(line["path"] == .string("kinds/k1"))
      #expect(line["exists"] == .bool(true))
      #expect(line["createTime"]?.stringValue != nil && line["updateTime"]?.stringValue != nil)
      #expect(line["data"] == .parse(Self.allKinds))
      #expect(line.objectValue?.map(\.0) == ["path", "exists", "createTime", "updateTime", "data"])

      // --format rest prints Firestore's REST mapping under "fields".
      let rest = try await backend.run(project, ["get", "kinds/k1", "--format", "rest"])
      let fields = try #require(rest.json.first?["fields"])
      #expect(fields["i"] == .parse(#"{"integerValue":"-7"}"#))
      #expect(fields["d"] == .parse(#"{"doubleValue":2.0}"#))
      #expect(fields["ref"] == .parse(#"{"referenceValue":"projects/\#(project)/databases/(default)/documents/cities/c1"}"#))
      #expect(rest.json.first?["data"] == nil)

      // --input-format rest takes those fields back; the document reads the same.
      let restFields = JSONWriter.string(fields)
      let copy = try await backend.run(project, ["--input-format", "rest", "set", "kinds/k2", restFields])
      #expect(copy.status == 0, "\(copy)")
      let both = try await backend.run(project, ["get", "kinds/k2", "kinds/none", "kinds/k1"])
      #expect(both.json.count == 3)
      #expect(both.json[0]["data"] == .parse(Self.allKinds))
      #expect(both.json[1] == .parse(#"{"path":"kinds/none","exists":false}"#))
      #expect(both.json[2]["path"] == .string("kinds/k1"))

      // FIRESTORE_EMULATOR_HOST instead of --emulator; --database picks another database.
      let viaEnvironment = try await CLI.run(
        ["--project", project, "get", "kinds/k1"], environment: ["FIRESTORE_EMULATOR_HOST": backend.host])
      #expect(viaEnvironment.json.first?["data"] == .parse(Self.allKinds), "\(viaEnvironment)")
      #expect(try await backend.run(project, ["--database", "second", "set", "kinds/k9", #"{"db":2}"#]).status == 0)
      #expect(try await backend.run(project, ["get", "kinds/k9"]).json.first?["exists"] == .bool(false))
      #expect(try await backend.run(project, ["get", "kinds/k9", "--database", "second"]).json.first?["data"] == .parse(#"{"db":2}"#))

      // A service account key names the project when --project is not given.
      let keyProject = backend.project("keyproject")
      let key = try temporaryFile(try await Self.serviceAccountKey(project: keyProject), name: "key.json")
      defer { removeTemporaryFile(key) }
      let withKey = try await CLI.run(["--emulator", backend.host, "--credentials", key, "set", "kinds/k1", #"{"via":"key"}"#])
      #expect(withKey.status == 0, "\(withKey)")
      #expect(try await backend.run(keyProject, ["get", "kinds/k1"]).json.first?["data"] == .parse(#"{"via":"key"}"#))
    }

    /// A service account key file with a fresh RSA key from openssl(1).
    static func serviceAccountKey(project: String) async throws -> String {
      let generated = try await RunningProcess.run(
        URL(fileURLWithPath: "/usr/bin/openssl"), ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
        environment: ProcessInfo.processInfo.environment)
      let pem = generated.stdout
      try #require(generated.status == 0 && pem.contains("PRIVATE KEY"), "openssl genpkey failed: \(generated)")
      let key: JSONValue = .object([
        ("type", .string("service_account")), ("project_id", .string(project)), ("private_key_id", .string("k1")),
        ("private_key", .string(pem)), ("client_email", .string("cli@\(project).iam.gserviceaccount.com")),
      ])
      return JSONWriter.string(key)
    }

    @Test("set --merge, --merge-fields, create, update with every transform, delete, add", arguments: Backend.cli)
    func writes(_ backend: Backend) async throws {
      let p = backend.project()
      func data(_ path: String) async throws -> JSONValue? {
        let result = try await backend.run(p, ["get", path])
        return result.json.first?["data"]
      }
      #expect(
        try await backend.run(
          p, ["create", "users/u1", #"{"name":"Ada","visits":1,"tags":["a","b"],"hi":5,"lo":5,"addr":{"city":"London","zip":"N1"}}"#]
        ).status == 0)
      let again = try await backend.run(p, ["create", "users/u1", "{}"])
      #expect(again.status == 1)
      #expect(again.stderr.hasPrefix("error: ALREADY_EXISTS: "), "\(again)")

      let update = try await backend.run(
        p,
        [
          "update", "users/u1",
          #"{"visits":{"$increment":2},"tags":{"$arrayUnion":["c","a"]},"hi":{"$maximum":9},"lo":{"$minimum":1.5},"addr.city":"Paris","name":{"$delete":true},"seen":{"$serverTimestamp":true}}"#,
        ])
      #expect(update.status == 0, "\(update)")
      var doc = try #require(try await data("users/u1"))
      #expect(doc["visits"] == .integer(3))
      #expect(doc["tags"] == .parse(#"["a","b","c"]"#))
      #expect(doc["hi"] == .integer(9))
      #expect(doc["lo"] == .parse("1.5"))
      #expect(doc["addr"] == .parse(#"{"city":"Paris","zip":"N1"}"#))
      #expect(doc["name"] == nil)
      #expect(doc["seen"]?["$timestamp"]?.stringValue != nil)

      #expect(try await backend.run(p, ["update", "users/u1", #"{"tags":{"$arrayRemove":["a"]}}"#]).status == 0)
      #expect(try await data("users/u1")?["tags"] == .parse(#"["b","c"]"#))

      #expect(try await backend.run(p, ["set", "users/u1", #"{"addr":{"zip":"75001"},"extra":1}"#, "--merge"]).status == 0)
      doc = try #require(try await data("users/u1"))
      #expect(doc["addr"] == .parse(#"{"city":"Paris","zip":"75001"}"#))
      #expect(doc["visits"] == .integer(3))

      #expect(try await backend.run(p, ["set", "users/u1", #"{"extra":2,"visits":100}"#, "--merge-fields", "extra"]).status == 0)
      doc = try #require(try await data("users/u1"))
      #expect(doc["extra"] == .integer(2))
      #expect(doc["visits"] == .integer(3))

      // A plain set replaces the document; transforms work in set too. DATA can come from stdin.
      let replaced = try await backend.run(p, ["set", "users/u1", "-"], stdin: #"{"only":{"$increment":1.5}}"#)
      #expect(replaced.status == 0, "\(replaced)")
      #expect(try await data("users/u1") == .parse(#"{"only":1.5}"#))

      let missing = try await backend.run(p, ["delete", "users/none", "--must-exist"])
      #expect(missing.status == 1)
      #expect(missing.stderr.hasPrefix("error: NOT_FOUND: "), "\(missing)")
      #expect(try await backend.run(p, ["delete", "users/none"]).status == 0)
      let deleted = try await backend.run(p, ["delete", "users/u1", "--must-exist"])
      #expect(deleted.status == 0, "\(deleted)")
      #expect(try await backend.run(p, ["get", "users/u1"]).json == [.parse(#"{"path":"users/u1","exists":false}"#)])

      let file = try temporaryFile(#"{"title":"from a file"}"#, name: "data.json")
      defer { removeTemporaryFile(file) }
      let added = try await backend.run(p, ["add", "users/u2/notes", "@" + file])
      #expect(added.status == 0, "\(added)")
      let path = try #require(added.json.first?["path"]?.stringValue)
      #expect(path.hasPrefix("users/u2/notes/") && path.count == "users/u2/notes/".count + 20)
      #expect(try await data(path) == .parse(#"{"title":"from a file"}"#))
    }

    @Test("set of an array inside an array is refused before sending, and nothing is written", arguments: Backend.cli)
    func arrayInArrayRefused(_ backend: Backend) async throws {
      let p = backend.project()
      let set = try await backend.run(p, ["set", "a/j", #"{"x":[[1]]}"#])
      #expect(set.status != 0, "\(set)")
      #expect(set.stderr.contains("INVALID_ARGUMENT"), "\(set)")
      #expect(set.stderr.contains("holds an array inside an array"), "\(set)")
      let get = try await backend.run(p, ["get", "a/j"])
      #expect(get.json.first?["data"] == nil, "\(get)")
    }

    @Test("set --merge with a map holding only a sentinel keeps the map's other fields", arguments: Backend.cli)
    func mergeNestedSentinels(_ backend: Backend) async throws {
      let p = backend.project()
      func data(_ path: String) async throws -> JSONValue? {
        try await backend.run(p, ["get", path]).json.first?["data"]
      }
      // What the official Python client leaves after the same calls on the same emulator.
      #expect(try await backend.run(p, ["set", "d/x", #"{"b":{"x":1,"y":2}}"#]).status == 0)
      let stamped = try await backend.run(p, ["set", "--merge", "d/x", #"{"a":1,"b":{"c":{"$serverTimestamp":true}}}"#])
      #expect(stamped.status == 0, "\(stamped)")
      let x = try #require(try await data("d/x"))
      #expect(x["a"] == .integer(1))
      #expect(x["b"]?["x"] == .integer(1) && x["b"]?["y"] == .integer(2), "\(x)")
      #expect(x["b"]?["c"]?["$timestamp"]?.stringValue != nil, "\(x)")

      #expect(try await backend.run(p, ["set", "d/y", #"{"b":{"x":1,"c":5}}"#]).status == 0)
      let deleted = try await backend.run(p, ["set", "--merge", "d/y", #"{"a":1,"b":{"c":{"$delete":true}}}"#])
      #expect(deleted.status == 0, "\(deleted)")
      #expect(try await data("d/y") == .parse(#"{"a":1,"b":{"x":1}}"#))
    }
  }
}
