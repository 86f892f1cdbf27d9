import Foundation

extension ListenResponse {
  /// A change in the state of targets (`google.firestore.v1.TargetChange`).
  ///
  /// With empty `targetIDs` the change applies to every target; a `NO_CHANGE` with empty
  /// `targetIDs` and a `readTime` is the global consistent point at which a client may
  /// raise snapshots.
  public struct TargetChange: Sendable, Equatable {
    /// The kind of change.
    public enum Kind: String, Sendable, CaseIterable {
      /// Nothing but a new resume token and/or read time (the JSON omits the type).
      case noChange = "NO_CHANGE"
      /// The targets were added.
      case add = "ADD"
      /// The targets were removed; with a `cause` they failed.
      case remove = "REMOVE"
      /// The targets are up to date as of the next consistent point.
      case current = "CURRENT"
      /// The targets were reset: a new initial state follows, then CURRENT again.
      case reset = "RESET"
    }

    /// Why a target was removed: a `google.rpc.Status`.
    public struct Cause: Sendable, Equatable {
      /// The gRPC status code (e.g. 7 PERMISSION_DENIED).
      public var code: Int
      /// A developer-facing message.
      public var message: String

      /// Creates a cause.
      public init(code: Int, message: String) {
        self.code = code
        self.message = message
      }
    }

    /// The kind of change.
    public var kind: Kind
    /// The targets affected; empty means all.
    public var targetIDs: [Int32]
    /// Why the targets were removed, for a failing REMOVE.
    public var cause: Cause?
    /// A token to resume the targets from this point, opaque bytes.
    public var resumeToken: Data?
    /// The read time the change is consistent with.
    public var readTime: Timestamp?

    /// Creates a target change.
    public init(kind: Kind = .noChange, targetIDs: [Int32] = [], cause: Cause? = nil, resumeToken: Data? = nil, readTime: Timestamp? = nil)
    {
      self.kind = kind
      self.targetIDs = targetIDs
      self.cause = cause
      self.resumeToken = resumeToken
      self.readTime = readTime
    }

    /// Whether this is a global consistent point: `NO_CHANGE` for all targets with a read time.
    public var isGlobalConsistencyPoint: Bool {
      kind == .noChange && targetIDs.isEmpty && readTime != nil
    }

    /// Reads a `TargetChange` JSON object.
    ///
    /// - Throws: ``WireFormatError`` for an unknown `targetChangeType`, bad base64 or a
    ///   malformed member.
    public init(json: JSONValue) throws {
      try json.requireObject("targetChange")
      let type = try json.optionalString("targetChangeType") ?? "NO_CHANGE"
      guard let kind = Kind(rawValue: type) else { throw WireFormatError("unknown targetChangeType \"\(type)\"") }
      self.kind = kind
      targetIDs = try json.int32Array("targetIds")
      if let status = json["cause"] {
        // google.rpc.Status: a zero code is omitted.
        let code = try status["code"]?.asInt64("code") ?? 0
        cause = Cause(code: Int(code), message: try status.optionalString("message") ?? "")
      }
      resumeToken = try json.optionalString("resumeToken").map {
        guard let data = Value.decodeBase64($0) else { throw WireFormatError("resumeToken is not base64") }
        return data
      }
      readTime = try json.optionalTimestamp("readTime")
    }

    /// The JSON form, as the server writes it (type omitted for `NO_CHANGE`).
    public var json: JSONValue {
      var m: [(String, JSONValue)] = []
      if kind != .noChange { m.append(("targetChangeType", .string(kind.rawValue))) }
      m.append("targetIds", ListenResponse.ids(targetIDs))
      if let cause {
        var status: [(String, JSONValue)] = []
        if cause.code != 0 { status.append(("code", .integer(Int64(cause.code)))) }
        if !cause.message.isEmpty { status.append(("message", .string(cause.message))) }
        m.append(("cause", .object(status)))
      }
      m.append("resumeToken", resumeToken.map { .string($0.base64EncodedString()) })
      m.append("readTime", readTime.map { .string($0.rfc3339) })
      return .object(m)
    }
  }
}
