import CommandLineSupport
import Foundation

/// The options every command accepts, before or after the command name.
struct GlobalOptions: Sendable {
  /// Their specs, for parsing and help.
  static let specs: [OptionSpec] = [
    OptionSpec(OptionName.project, "ID", help: "project ID (else FIRESTORE_PROJECT, GOOGLE_CLOUD_PROJECT, GCLOUD_PROJECT)"),
    OptionSpec(OptionName.database, "ID", help: "database ID (default: (default))"),
    OptionSpec(OptionName.emulator, "HOST:PORT", help: "use the emulator at HOST:PORT (else FIRESTORE_EMULATOR_HOST)"),
    OptionSpec(OptionName.host, "HOST[:PORT]", help: "the API endpoint (default firestore.googleapis.com), over https unless --insecure"),
    OptionSpec(OptionName.insecure, help: "with --host: plain http, no TLS (an emulator, or a mock)"),
    OptionSpec(OptionName.caFile, "PEM", help: "trust the root certificates in PEM instead of the system's (a private CA)"),
    OptionSpec(OptionName.proxy, "URL", help: "send requests through this proxy (else https_proxy, HTTPS_PROXY, NO_PROXY...)"),
    OptionSpec(OptionName.token, "TOKEN", help: "bearer token to send, as `gcloud auth print-access-token` prints it"),
    OptionSpec(OptionName.callTimeout, "SECONDS", help: "how long one call, or a wait for the next part of a reply, may take (default 60)"),
    OptionSpec(OptionName.mock, help: "run against an in-process mock server started for this command"),
    OptionSpec(OptionName.mockData, "FILE", help: "with --mock: preload the NDJSON documents of FILE (as export writes them)"),
    OptionSpec(OptionName.credentials, "FILE", help: "service account key file (production; an emulator only takes its project ID)"),
    OptionSpec(OptionName.format, "json|rest", help: "output values as extended JSON (default) or Firestore's REST mapping"),
    OptionSpec(OptionName.inputFormat, "json|rest", help: "input values as extended JSON (default) or Firestore's REST mapping"),
    OptionSpec(OptionName.help, help: "show help (also -h)"),
  ]

  /// `--project`.
  var project: String?
  /// `--database`.
  var database = "(default)"
  /// `--emulator`, else `FIRESTORE_EMULATOR_HOST`.
  var emulatorHost: String?
  /// `--host`: an endpoint other than production's.
  var host: String?
  /// `--insecure`: `--host` over plain http.
  var insecure = false
  /// `--ca-file`.
  var caFile: String?
  /// `--proxy`.
  var proxy: String?
  /// `--token`.
  var token: String?
  /// `--call-timeout`: the client's per-call deadline (`FirestoreSettings.timeout`).
  var callTimeout: Duration?
  /// `--mock`.
  var mock = false
  /// `--mock-data`.
  var mockData: String?
  /// `--credentials`.
  var credentials: String?
  /// `--format`.
  var format = DataFormat.json
  /// `--input-format`.
  var inputFormat = DataFormat.json

  /// Reads the global options out of a parsed command line and the environment.
  init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
    project = arguments.value(OptionName.project)
    if let project, project.isEmpty { throw UsageError("--project must not be empty") }
    if let database = arguments.value(OptionName.database) {
      guard !database.isEmpty else { throw UsageError("--database must not be empty") }
      self.database = database
    }
    mock = arguments.has(OptionName.mock)
    mockData = arguments.value(OptionName.mockData)
    if mockData != nil, !mock { throw UsageError("--mock-data needs --mock") }
    credentials = arguments.value(OptionName.credentials)
    if let host = arguments.value(OptionName.emulator) {
      guard Self.isHostAndPort(host) else { throw UsageError("--emulator needs HOST:PORT, got '\(host)'") }
      if mock { throw UsageError("--emulator and --mock cannot be combined") }
      emulatorHost = host
    } else if !mock, let host = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingCharacters(in: .whitespaces), !host.isEmpty {
      emulatorHost = host
    }
    if let host = arguments.value(OptionName.host) {
      guard Self.isHost(host) else { throw UsageError("--host needs HOST or HOST:PORT, got '\(host)'") }
      if mock || arguments.has(OptionName.emulator) { throw UsageError("--host cannot be combined with --emulator or --mock") }
      self.host = host
      emulatorHost = nil
    }
    insecure = arguments.has(OptionName.insecure)
    if insecure, host == nil { throw UsageError("--insecure goes with --host") }
    caFile = arguments.value(OptionName.caFile)
    if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
      throw UsageError("--ca-file '\(caFile)' cannot be read")
    }
    proxy = arguments.value(OptionName.proxy)
    if let proxy {
      guard let components = URLComponents(string: proxy), components.host?.isEmpty == false else {
        throw UsageError("--proxy needs a URL such as http://proxy:3128, got '\(proxy)'")
      }
      guard let scheme = components.scheme?.lowercased(), Self.proxySchemes.contains(scheme) else {
        throw UsageError("--proxy '\(proxy)' has a scheme libcurl cannot use (use \(Self.proxySchemes.joined(separator: ", ")))")
      }
    }
    if let token = arguments.value(OptionName.token) {
      let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { throw UsageError("--token must not be empty") }
      self.token = trimmed
    }
    callTimeout = try arguments.seconds(OptionName.callTimeout)
    if let text = arguments.value(OptionName.format) { format = try DataFormat.parse(text, option: OptionName.format) }
    if let text = arguments.value(OptionName.inputFormat) { inputFormat = try DataFormat.parse(text, option: OptionName.inputFormat) }
  }

  /// The proxy schemes libcurl speaks.
  private static let proxySchemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

  /// `HOST` or `HOST:PORT` (a bracketed IPv6 address too), with no scheme or path.
  private static func isHost(_ text: String) -> Bool {
    guard !text.isEmpty, !text.contains("/"), !text.contains("@") else { return false }
    guard let components = URLComponents(string: "https://" + text), let host = components.host, !host.isEmpty else { return false }
    return components.port.map { (1...65_535).contains($0) } ?? !text.hasSuffix(":")
  }

  private static func isHostAndPort(_ text: String) -> Bool {
    guard let colon = text.lastIndex(of: ":"), colon != text.startIndex, let port = Int(text[text.index(after: colon)...]) else {
      return false
    }
    return (1...65_535).contains(port)
  }
}
