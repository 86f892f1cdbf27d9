import FirestoreWire
import Foundation

/// A fault to inject into the requests that match a route, optionally only a limited
/// number of times ("fail the next K commits, then recover" is an ``Fault/error(status:grpcStatus:message:)``
/// rule with `remaining: K`).
///
/// Route matching (see ``matches(method:path:query:)``) uses the percent-decoded request path:
/// * `nil` or `""` matches every request.
/// * A bare name made only of ASCII letters, digits and `_` (`commit`, `runQuery`,
///   `batchGet`, `beginTransaction`, `Listen`, …) names an RPC: it matches, ignoring case,
///   when the path ends with `:name` (REST custom methods such as `…/documents:commit`) or
///   with `/name/channel` (WebChannel streams such as
///   `/google.firestore.v1.Firestore/Listen/channel`).
/// * Anything else is a plain, case-sensitive substring of `"<METHOD> <path>"`, e.g.
///   `"GET "` (every GET), `"PATCH /v1/"`, `"/documents/cities/"` or `":commit"`.
/// * A route with a `?` matches as above by the part before it, and the part after it must
///   also occur in the raw (still percent-encoded) query string: `"GET /google.firestore.v1.Firestore/Listen/channel?RID=rpc"`
///   selects Listen back channels but not the `TYPE=terminate` GETs on the same path, and
///   `"Listen?TYPE=terminate"` only those.
public struct FaultRule: Sendable, Equatable {
  /// Which requests the rule applies to; see the type's documentation. `nil` = every request.
  public var route: String?
  /// What to do to a matching request.
  public var fault: Fault
  /// How many more matching requests the rule applies to before it is spent and removed
  /// (`nil` = forever).
  public var remaining: Int?

  /// Creates a rule.
  public init(route: String? = nil, fault: Fault, remaining: Int? = nil) {
    self.route = route
    self.fault = fault
    self.remaining = remaining
  }

  /// Whether the rule's ``route`` selects a request with this method, decoded path and raw
  /// query string (without the `?`).
  public func matches(method: String, path: String, query: String = "") -> Bool {
    guard var route, !route.isEmpty else { return true }
    if let mark = route.firstIndex(of: "?") {
      guard query.contains(route[route.index(after: mark)...]) else { return false }
      route = String(route[..<mark])
      if route.isEmpty { return true }
    }
    let isBareName = route.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    if isBareName {
      let name = route.lowercased()
      let lowerPath = path.lowercased()
      return lowerPath.hasSuffix(":" + name) || lowerPath.hasSuffix("/" + name + "/channel")
    }
    return (method + " " + path).contains(route)
  }

  // MARK: - JSON

  /// Parses the JSON form an admin endpoint accepts: an object with an optional `route`
  /// (string or null), an optional `remaining` (integer ≥ 1 or null) and exactly one fault:
  ///
  /// * `"latencyMs": 50`
  /// * `"error": {"status": 503, "grpcStatus": "UNAVAILABLE", "message": "injected"}`;
  ///   every member is optional: `status` defaults to 503, `grpcStatus` to the name
  ///   ``Fault/grpcStatusName(forHTTPStatus:)`` gives `status`, `message` to `"Injected fault."`
  /// * `"dropAfterBytes": 10`
  /// * `"truncateAfterBytes": 100`
  /// * `"stall": true`
  /// * `"hold": "name"` (released with `POST /mock/v1/faults:release {"hold":"name"}`)
  /// * `"dropAfterFrames": 2`, `"stallAfterFrames": 2`, `"closeSessionAfterFrames": 2`
  ///   (Listen back channel only; see ``Fault/dropAfterFrames(_:)``)
  /// * `"replaceResponse": {"status": 200, "contentType": "text/html", "body": "<html>"}`;
  ///   `status` defaults to 200, `contentType` may be null or left out (no header), and the
  ///   body is given as text in `body` or as bytes in `bodyBase64` (neither: empty)
  ///
  /// Integers may be JSON numbers or decimal strings.
  /// - Throws: `WireFormatError` naming the problem, for unknown members, wrong types,
  ///   out-of-range numbers, or not exactly one fault.
  public static func parse(json: JSONValue) throws -> FaultRule {
    guard let members = json.objectValue else {
      throw WireFormatError("fault rule: expected a JSON object, got \(json.kindName)")
    }
    var route: String?
    var remaining: Int?
    var faults: [Fault] = []
    for (key, value) in members {
      switch key {
      case "route":
        if value == .null { continue }
        guard let text = value.stringValue else { throw WireFormatError("fault rule: \"route\" must be a string, got \(value.kindName)") }
        route = text
      case "remaining":
        if value == .null { continue }
        remaining = try integer(value, member: "remaining", minimum: 1)
      case "latencyMs":
        faults.append(.latency(milliseconds: try integer(value, member: "latencyMs", minimum: 0)))
      case "dropAfterBytes":
        faults.append(.dropConnection(afterResponseBytes: try integer(value, member: "dropAfterBytes", minimum: 0)))
      case "truncateAfterBytes":
        faults.append(.truncateStream(afterBytes: try integer(value, member: "truncateAfterBytes", minimum: 0)))
      case "dropAfterFrames":
        faults.append(.dropAfterFrames(try integer(value, member: key, minimum: 0)))
      case "stallAfterFrames":
        faults.append(.stallAfterFrames(try integer(value, member: key, minimum: 0)))
      case "closeSessionAfterFrames":
        faults.append(.closeSessionAfterFrames(try integer(value, member: key, minimum: 0)))
      case "stall":
        guard value == .bool(true) else { throw WireFormatError("fault rule: \"stall\" must be true") }
        faults.append(.stall)
      case "hold":
        guard let name = value.stringValue else { throw WireFormatError("fault rule: \"hold\" must be a string, got \(value.kindName)") }
        faults.append(.hold(name))
      case "error":
        faults.append(try errorFault(value))
      case "replaceResponse":
        faults.append(try replacementFault(value))
      default:
        throw WireFormatError("fault rule: unknown member \"\(key)\"")
      }
    }
    guard faults.count == 1 else {
      let names =
        #""latencyMs", "error", "dropAfterBytes", "truncateAfterBytes", "stall", "hold", "dropAfterFrames", "#
        + #""stallAfterFrames", "closeSessionAfterFrames", "replaceResponse""#
      throw WireFormatError("fault rule: expected exactly one of \(names); got \(faults.count)")
    }
    return FaultRule(route: route, fault: faults[0], remaining: remaining)
  }

  /// The JSON form ``parse(json:)`` accepts (`route` and `remaining` are left out when nil).
  public var json: JSONValue {
    var members: [(String, JSONValue)] = []
    if let route { members.append(("route", .string(route))) }
    if let remaining { members.append(("remaining", .integer(Int64(remaining)))) }
    members.append(fault.jsonMember)
    return .object(members)
  }

  private static func errorFault(_ value: JSONValue) throws -> Fault {
    guard let members = value.objectValue else { throw WireFormatError("fault rule: \"error\" must be an object, got \(value.kindName)") }
    var status = 503
    var grpcStatus: String?
    var message = "Injected fault."
    for (key, member) in members {
      switch key {
      case "status", "code": status = try integer(member, member: "error.\(key)", minimum: 100, maximum: 599)
      case "grpcStatus":
        guard let text = member.stringValue, !text.isEmpty else {
          throw WireFormatError("fault rule: \"error.grpcStatus\" must be a non-empty string")
        }
        grpcStatus = text
      case "message":
        guard let text = member.stringValue else { throw WireFormatError("fault rule: \"error.message\" must be a string") }
        message = text
      default:
        throw WireFormatError("fault rule: unknown member \"error.\(key)\"")
      }
    }
    return .error(status: status, grpcStatus: grpcStatus ?? Fault.grpcStatusName(forHTTPStatus: status), message: message)
  }

  private static func replacementFault(_ value: JSONValue) throws -> Fault {
    guard let members = value.objectValue else {
      throw WireFormatError("fault rule: \"replaceResponse\" must be an object, got \(value.kindName)")
    }
    var status = 200
    var contentType: String?
    var body: [UInt8]?
    for (key, member) in members {
      switch key {
      case "status": status = try integer(member, member: "replaceResponse.status", minimum: 200, maximum: 599)
      case "contentType":
        if member == .null { continue }
        guard let text = member.stringValue, !text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
          throw WireFormatError("fault rule: \"replaceResponse.contentType\" must be a string without line breaks")
        }
        contentType = text
      case "body", "bodyBase64":
        guard body == nil else { throw WireFormatError("fault rule: give \"replaceResponse.body\" or \"bodyBase64\", not both") }
        guard let text = member.stringValue else { throw WireFormatError("fault rule: \"replaceResponse.\(key)\" must be a string") }
        if key == "body" {
          body = Array(text.utf8)
        } else {
          guard let data = Data(base64Encoded: text) else {
            throw WireFormatError("fault rule: \"replaceResponse.bodyBase64\" is not valid base64")
          }
          body = Array(data)
        }
      default:
        throw WireFormatError("fault rule: unknown member \"replaceResponse.\(key)\"")
      }
    }
    return .replaceResponse(status: status, contentType: contentType, body: body ?? [])
  }

  private static func integer(_ value: JSONValue, member: String, minimum: Int, maximum: Int = Int(Int32.max)) throws -> Int {
    let text: String?
    switch value {
    case .number(let t): text = t
    case .string(let t): text = t
    default: text = nil
    }
    guard let text, let number = Int(text), number >= minimum, number <= maximum else {
      throw WireFormatError("fault rule: \"\(member)\" must be an integer from \(minimum) to \(maximum)")
    }
    return number
  }
}
