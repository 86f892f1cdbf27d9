import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Auth: credential files")
struct CredentialsFileTests {
  /// A key whose base64 body must never be echoed.
  static let fakeKeyBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCsecretkeymaterial"

  @Test(
    "a bad key file names the file and the field, never the key",
    arguments: [
      ("client_email", ["client_email": nil], "field \"client_email\" is missing"),
      ("client_email", ["client_email": .number("42")], "field \"client_email\" must be a string, not a number"),
      ("private_key", ["private_key": nil], "field \"private_key\" is missing"),
      (
        "private_key", ["private_key": .string("-----BEGIN PRIVATE KEY-----\n\(fakeKeyBody)\n-----END PRIVATE KEY-----\n")],
        "field \"private_key\" is not a PEM-encoded private key"
      ),
      ("private_key", ["private_key": .string(fakeKeyBody)], "field \"private_key\" is not PEM text"),
      (
        "private_key",
        ["private_key": .string("-----BEGIN ENCRYPTED PRIVATE KEY-----\n\(fakeKeyBody)\n-----END ENCRYPTED PRIVATE KEY-----\n")],
        "field \"private_key\" is an encrypted private key"
      ),
      ("token_uri", ["token_uri": .string("http://oauth2.googleapis.com/token")], "field \"token_uri\" must be an https URL"),
      ("type", ["type": .string("external_account")], "field \"type\" is \"external_account\""),
    ] as [(String, [String: JSONValue?], String)])
  func badKeyFile(field: String, overrides: [String: JSONValue?], expected: String) throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.write("key.json", AuthFixtures.serviceAccountJSON(overrides))
    let error = try #require(throws: FirestoreError.self) { try ServiceAccountCredentials(contentsOf: path) }
    #expect(error.code == .invalidArgument)
    #expect(error.message.contains(path), "the message names the file")
    #expect(error.message.contains(expected), "\(error.message)")
    #expect(!error.description.contains(Self.fakeKeyBody))
    for line in AuthFixtures.keyMaterial { #expect(!error.description.contains(line)) }
  }

  @Test("a file that is not JSON, or missing, is named without quoting its text")
  func unreadableFiles() throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.write("broken.json", "{\"private_key\": \"\(Self.fakeKeyBody)")
    let error = try #require(throws: FirestoreError.self) { try ServiceAccountCredentials(contentsOf: path) }
    #expect(error.message == "service account key file \(path) is not valid JSON")
    let missing = try #require(throws: FirestoreError.self) { try ServiceAccountCredentials(contentsOf: dir.path + "/nope.json") }
    #expect(missing.message.contains("nope.json does not exist"))
  }

  @Test("an authorized_user file needs client_id, client_secret and refresh_token")
  func authorizedUserFields() throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let path = dir.write(
      "adc.json", #"{"type":"authorized_user","client_id":"cid.apps.googleusercontent.com","client_secret":"shh-client-secret"}"#)
    let error = try #require(throws: FirestoreError.self) { try AuthorizedUserCredentials(contentsOf: path) }
    #expect(error.message == "authorized user credentials file \(path): field \"refresh_token\" is missing")
    #expect(!error.description.contains("shh-client-secret"))
  }

  @Test("a short or non-RSA key is refused")
  func weakKeys() throws {
    let small = TestRSAKey(bits: 1024)
    let error = try #require(throws: FirestoreError.self) {
      try ServiceAccountCredentials(jsonData: Data(AuthFixtures.serviceAccountJSON(["private_key": .string(small.privatePEM)]).utf8))
    }
    #expect(error.message.contains("shorter than 2048 bits"))
  }

  @Test("plain http is refused for credentials unless the endpoint was configured explicitly")
  func httpsOnly() throws {
    let credentials = try AuthFixtures.serviceAccount()
    #expect(try ServiceAccountTokenProvider(credentials: credentials).tokenURL.scheme == "https")
    #expect(
      try ServiceAccountTokenProvider(credentials: credentials, tokenURL: URL(string: "http://127.0.0.1:9/token")!).tokenURL.scheme
        == "http")
    let ftp = try #require(throws: FirestoreError.self) {
      try ServiceAccountTokenProvider(credentials: credentials, tokenURL: URL(string: "ftp://127.0.0.1/token")!)
    }
    #expect(ftp.message.contains("is not an http(s) URL"))
    // Firebase Auth: https to Google unless an emulator host is configured.
    let production = try TokenEndpointRPC.firebaseAuthURL(.signUp, apiKey: "k", emulatorHost: nil).get()
    #expect(production.absoluteString == "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
    let emulator = try TokenEndpointRPC.firebaseAuthURL(.signUp, apiKey: "k", emulatorHost: "127.0.0.1:9099").get()
    #expect(emulator.absoluteString == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
    #expect(FirebaseAuthTokenProvider(apiKey: "k", environment: [:]).emulatorHost == nil)
    #expect(FirebaseAuthTokenProvider(apiKey: "k", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "h:1"]).emulatorHost == "h:1")
    // Firestore itself: TLS unless an emulator host is configured.
    #expect(FirestoreSettings(environment: [:]).configuration.baseURL == "https://firestore.googleapis.com")
  }
}
