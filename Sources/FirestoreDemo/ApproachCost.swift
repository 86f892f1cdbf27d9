/// What one way of reading the articles cost on the wire.
public struct ApproachCost: Sendable, Equatable {
  /// HTTP requests sent (round trips).
  public var roundTrips: Int
  /// Documents the server read and returned (what Firestore bills as reads).
  public var documentsRead: Int
  /// Response body bytes received.
  public var bytesReceived: Int
}
