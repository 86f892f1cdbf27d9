import FirestoreMock
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Auth: Application Default Credentials")
struct ApplicationDefaultCredentialsTests {
  /// An environment that finds nothing on its own: an empty home, a closed metadata port.
  static func bare(_ dir: TempDirectory) -> [String: String] {
    ["HOME": dir.path, "GCE_METADATA_HOST": "127.0.0.1:1"]
  }

  @Test("GOOGLE_APPLICATION_CREDENTIALS with a service account key comes first")
  func environmentVariableFirst() async throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let key = dir.write("sa.json", AuthFixtures.serviceAccountJSON())
    dir.write(".config/gcloud/application_default_credentials.json", Self.authorizedUserJSON)
    var env = Self.bare(dir)
    env["GOOGLE_APPLICATION_CREDENTIALS"] = key
    let adc = try await ApplicationDefaultCredentials.find(environment: env)
    #expect(adc.source == .environmentVariable(path: key))
    #expect(adc.projectID == "demo-auth")
    #expect((adc.tokenProvider as? ServiceAccountTokenProvider)?.credentials.clientEmail == AuthFixtures.clientEmail)
    env["GOOGLE_CLOUD_PROJECT"] = "override-project"
    #expect(try await ApplicationDefaultCredentials.find(environment: env).projectID == "override-project")
  }

  @Test("a bad GOOGLE_APPLICATION_CREDENTIALS file is an error, not a reason to look further")
  func badEnvironmentFile() async throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let key = dir.write("sa.json", AuthFixtures.serviceAccountJSON(["client_email": nil]))
    var env = Self.bare(dir)
    env["GOOGLE_APPLICATION_CREDENTIALS"] = key
    let error = try await #require(throws: FirestoreError.self) { try await ApplicationDefaultCredentials.find(environment: env) }
    #expect(error.message == "GOOGLE_APPLICATION_CREDENTIALS file \(key): field \"client_email\" is missing")
  }

  static let authorizedUserJSON = """
    {"type":"authorized_user","client_id":"cid.apps.googleusercontent.com","client_secret":"shh-client-secret",
     "refresh_token":"1//user-refresh-secret","quota_project_id":"quota-project"}
    """

  @Test("the gcloud file under HOME or CLOUDSDK_CONFIG, with an authorized_user refresh token")
  func gcloudFile() async throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let home = dir.write(".config/gcloud/application_default_credentials.json", Self.authorizedUserJSON)
    let adc = try await ApplicationDefaultCredentials.find(environment: Self.bare(dir))
    #expect(adc.source == .gcloudFile(path: home))
    #expect(adc.projectID == "quota-project")
    let provider = try #require(adc.tokenProvider as? AuthorizedUserTokenProvider)
    #expect(provider.tokenURL.absoluteString == "https://oauth2.googleapis.com/token")

    let config = dir.write("cloudsdk/application_default_credentials.json", Self.authorizedUserJSON)
    var env = Self.bare(dir)
    env["CLOUDSDK_CONFIG"] = dir.path + "/cloudsdk"
    #expect(try await ApplicationDefaultCredentials.find(environment: env).source == .gcloudFile(path: config))
  }

  @Test("an authorized_user refresh token is exchanged for an access token")
  func authorizedUserExchange() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    server.update { $0.authorizedUser = ("cid.apps.googleusercontent.com", "shh-client-secret", "1//user-refresh-secret") }
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let credentials = try AuthorizedUserCredentials(contentsOf: dir.write("adc.json", Self.authorizedUserJSON))
    let provider = try AuthorizedUserTokenProvider(credentials: credentials, tokenURL: server.tokenURL)
    #expect(try await provider.token(forceRefresh: false) == "ya29.user-1")
    #expect(try await provider.token(forceRefresh: false) == "ya29.user-1")
    let form = try #require(server.snapshot.tokenForms.first)
    #expect(form["grant_type"] == "refresh_token")
    #expect(form["refresh_token"] == "1//user-refresh-secret")

    server.update { $0.authorizedUser = nil }  // the refresh token was revoked
    let error = try await #require(throws: FirestoreError.self) {
      try await AuthorizedUserTokenProvider(credentials: credentials, tokenURL: server.tokenURL).token(forceRefresh: false)
    }
    #expect(error.code == .unauthenticated)
    #expect(error.message.contains("invalid_grant"))
    #expect(!error.description.contains("user-refresh-secret") && !error.description.contains("shh-client-secret"))
  }

  @Test("the metadata server is used when nothing else applies, with Metadata-Flavor both ways")
  func metadataServer() async throws {
    let server = try MockAuthServer.start()
    defer { server.stop() }
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    var env = Self.bare(dir)
    env["GCE_METADATA_HOST"] = server.hostAndPort
    // The metadata probe's timeout only guards against a hang here: the mock answers, and a
    // busy machine must not make it look absent.
    let adc = try await ApplicationDefaultCredentials.find(environment: env, metadataTimeout: .seconds(60))
    #expect(adc.source == .metadataServer(host: server.hostAndPort))
    #expect(adc.projectID == "meta-project")
    #expect(try await adc.tokenProvider.token(forceRefresh: false) == "ya29.meta-1")
    #expect(try await adc.tokenProvider.token(forceRefresh: false) == "ya29.meta-1")
    #expect(server.snapshot.issued["meta"] == 1)

    // A server that does not answer as a metadata server is not one.
    server.update { $0.metadataEnabled = false }
    #expect(await MetadataServerTokenProvider.isAvailable(host: server.hostAndPort, timeout: .seconds(60)) == false)
  }

  @Test("when nothing applies, the error lists everything that was tried")
  func nothingFound() async throws {
    let dir = TempDirectory()
    defer { dir.cleanUp() }
    let error = try await #require(throws: FirestoreError.self) {
      try await ApplicationDefaultCredentials.find(environment: Self.bare(dir), metadataTimeout: .milliseconds(500))
    }
    #expect(error.code == .unauthenticated)
    #expect(error.message.contains("GOOGLE_APPLICATION_CREDENTIALS is not set"))
    #expect(error.message.contains("no gcloud credentials file at \(dir.path)/.config/gcloud/application_default_credentials.json"))
    #expect(error.message.contains("no metadata server answered at 127.0.0.1:1"))
  }
}
