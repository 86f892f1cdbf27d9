import FirestorePlatform
import FirestoreWire
import Foundation

/// Memory for large batches' request text, kept from one batch to the next.
///
/// A batch of some hundred documents writes its text twice: in parts, written ahead while
/// the batch fills (``WriteRecord``), then joined into the body its commit sends. Blocks of
/// that size mostly come fresh from the kernel each time (the C library maps large blocks
/// for each use and returns them when freed), and each of their pages then faults in on
/// first touch: an eighth of such a batch's CPU in a profile. Kept here, the next batch
/// writes into pages already mapped. At most ``keptBytes`` are kept for parts, and as much
/// for a body.
final class BatchTextBuffers: Sendable {
  /// The most capacity kept for parts, and for a body.
  static let keptBytes = 4 << 20

  private struct Spare {
    var parts: [[UInt8]] = []
    var partBytes = 0
    var body: BodyStorage?
  }

  private let spare = Locked(Spare())

  /// The text of `writes` as ``CommitRequest/encodedWrites(_:into:)`` writes it, in memory
  /// a part of an earlier batch had, if any is kept.
  func encodedWrites(_ writes: some Sequence<Write>) -> [UInt8] {
    let storage = spare.withLock { s -> [UInt8] in
      guard let part = s.parts.popLast() else { return [] }
      s.partBytes -= part.capacity
      return part
    }
    return CommitRequest.encodedWrites(writes, into: storage)
  }

  /// The body of a commit whose writes were written ahead by ``encodedWrites(_:)``, `parts`
  /// in order, in memory an earlier body had if it is large enough; the parts' memory is
  /// kept for the next batch. The body's memory comes back here when the last copy of the
  /// returned `Data` is gone.
  func body(encodedWrites parts: consuming [[UInt8]], transaction: String?) -> Data {
    var count = 0
    CommitRequest.forEachBodyPiece(encodedWrites: parts, transaction: transaction) { count += $0.count }
    let storage =
      spare.withLock { s -> BodyStorage? in
        guard let body = s.body, body.capacity >= count else { return nil }
        s.body = nil
        return body
      } ?? BodyStorage(capacity: Self.freshCapacity(for: count))
    var end = storage.pointer
    CommitRequest.forEachBodyPiece(encodedWrites: parts, transaction: transaction) { piece in
      guard let base = piece.baseAddress else { return }
      end.copyMemory(from: base, byteCount: piece.count)
      end += piece.count
    }
    keep(parts: parts)
    return Data(bytesNoCopy: storage.pointer, count: count, deallocator: .custom { [self] _, _ in keep(body: storage) })
  }

  /// The size of fresh memory for a body of `count` bytes: an eighth more (at most what
  /// is kept), so that the next batch, a little larger than this one, still fits in it once
  /// it is kept; a body too large to be kept gets its own size.
  static func freshCapacity(for count: Int) -> Int {
    count > keptBytes ? count : min(count + count / 8, keptBytes)
  }

  private func keep(parts: consuming [[UInt8]]) {
    // Taken out one by one, so that each is the array's only copy and keeps its memory;
    // its old text stays until ``encodedWrites(_:)`` writes over it.
    while let part = parts.popLast() {
      let capacity = part.capacity
      // A part never written (its task was skipped) has no memory to keep.
      if capacity == 0 { continue }
      let kept = spare.withLock { s in
        guard s.partBytes + capacity <= Self.keptBytes else { return false }
        s.parts.append(part)
        s.partBytes += capacity
        return true
      }
      if !kept { return }
    }
  }

  private func keep(body storage: BodyStorage) {
    guard storage.capacity <= Self.keptBytes else { return }
    // The larger of two is kept: it serves the next batch of either size.
    let dropped = spare.withLock { s -> BodyStorage? in
      if let kept = s.body, kept.capacity >= storage.capacity { return storage }
      defer { s.body = storage }
      return s.body
    }
    // Freed outside the lock.
    _ = consume dropped
  }
}

/// Memory a commit's body is written into and its `Data` then reads; freed with its
/// last reference.
///
/// Unchecked: its bytes are written before the `Data` that reads them exists, and only
/// read while it does; it is handed back (``BatchTextBuffers``) after that `Data` is gone.
private final class BodyStorage: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    pointer = .allocate(byteCount: max(capacity, 1), alignment: 16)
  }

  deinit { pointer.deallocate() }
}
