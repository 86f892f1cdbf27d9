/// Runs `body` with `server`, then stops it whether `body` threw or not, off the test's
/// thread: a server's stop waits for its threads, and one of the few threads that run all
/// the tests' tasks must not be held by that wait.
public func withStopping<Server: Sendable>(
  _ server: Server, stop: @escaping @Sendable (Server) -> Void, _ body: (Server) async throws -> Void
) async throws {
  do {
    try await body(server)
  } catch {
    await Blocking.run { stop(server) }
    throw error
  }
  await Blocking.run { stop(server) }
}
