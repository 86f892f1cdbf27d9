import FirestorePlatform
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Body channel: what a reader takes, and when the transfer stops")
struct BodyChannelTests {
  /// A producer that keeps the abort requests it gets.
  private final class AbortRecorder: BodyChannel.Producer {
    let aborts = Locked<[FirestoreError]>([])
    func resumeTransfer() {}
    func abortTransfer(_ error: FirestoreError) { aborts.withLock { $0.append(error) } }
    func keepIdleDeadline(_ idle: Duration) {}
  }

  /// A channel whose producer's abort requests are kept.
  private func channel() -> (BodyChannel, Locked<[FirestoreError]>) {
    let producer = AbortRecorder()
    let channel = BodyChannel()
    channel.connect(producer)
    return (channel, producer.aborts)
  }

  private func offer(_ text: String, to channel: BodyChannel) {
    _ = Data(text.utf8).withUnsafeBytes { channel.offer($0) }
  }

  @Test("chunks that arrived before the reader asked are handed out in order, then the end")
  func bufferedThenEnd() async throws {
    let (channel, aborts) = channel()
    offer("ab", to: channel)
    channel.finish()
    #expect(try await channel.next() == Data("ab".utf8))
    #expect(try await channel.next() == nil)
    #expect(try await channel.next() == nil)
    #expect(aborts.withLock { $0.isEmpty })
  }

  @Test("a body that ended whole, nothing read, is taken out at once as one piece")
  func wholeBodyTaken() async throws {
    let (channel, aborts) = channel()
    offer("ab", to: channel)
    offer("cd", to: channel)
    #expect(channel.takeWholeBody() == nil)
    channel.finish()
    #expect(channel.takeWholeBody() == Data("abcd".utf8))
    // Taken: the channel holds only its end.
    #expect(try await channel.next() == nil)
    #expect(aborts.withLock { $0.isEmpty })
  }

  @Test("an empty body that ended is taken as empty data")
  func emptyWholeBody() {
    let (channel, _) = channel()
    channel.finish()
    #expect(channel.takeWholeBody() == Data())
  }

  @Test("a body that failed, or whose reader began, is not taken whole and stays as it was")
  func wholeBodyNotTaken() async throws {
    let (failed, _) = channel()
    offer("ab", to: failed)
    failed.finish(.failure(FirestoreError(.unavailable, "the connection closed")))
    #expect(failed.takeWholeBody() == nil)
    #expect(try await failed.next() == Data("ab".utf8))
    await #expect(throws: FirestoreError.self) { try await failed.next() }

    let (begun, _) = channel()
    offer("ab", to: begun)
    offer("cd", to: begun)
    #expect(try await begun.next() == Data("ab".utf8))
    begun.finish()
    #expect(begun.takeWholeBody() == nil)
    #expect(try await begun.next() == Data("cd".utf8))
    #expect(try await begun.next() == nil)
  }

  @Test("a reader whose task is cancelled stops the transfer, also when bytes wait for it")
  func cancelledReaderAborts() async throws {
    let (channel, aborts) = channel()
    offer("ab", to: channel)
    let reader = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await channel.next()
    }
    _ = try? await reader.value
    #expect(aborts.withLock { $0.map(\.code) } == [.cancelled])
  }
}
