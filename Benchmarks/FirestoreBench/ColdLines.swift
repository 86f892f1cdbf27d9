/// A fixed set of cache lines, spread over pages of a large region, read one after another
/// along a chain in random order: each read waits for the one before, as fetching code
/// does, so that reading them all after something else filled the caches costs what that
/// much of a client's own code would cost to run cold. The same lines every time, as a
/// call runs the same code every time.
///
/// Only one caller at a time reads the chain (a paired run's sides take turns).
final class ColdLines: @unchecked Sendable {
  private let region: UnsafeMutableRawPointer
  private let start: Int
  /// How many lines the chain visits.
  let count: Int
  /// Where the last visit ended: stored, so that the reads are not left out.
  private(set) var end = 0

  /// `lines` lines spread over `pages` pages of 4 KiB, chosen at random from 256 MiB.
  init(lines: Int, pages: Int) {
    let pageSize = 4096
    let regionPages = 65_536
    region = UnsafeMutableRawPointer.allocate(byteCount: regionPages * pageSize, alignment: pageSize)
    var generator = SystemRandomNumberGenerator()
    let chosenPages = Array((0..<regionPages).shuffled(using: &generator).prefix(max(1, pages)))
    var offsets: [Int] = []
    for index in 0..<lines {
      let page = chosenPages[index % chosenPages.count]
      let line = (index / chosenPages.count) % (pageSize / 64)
      offsets.append(page * pageSize + line * 64)
    }
    offsets.shuffle(using: &generator)
    for (index, offset) in offsets.enumerated() {
      let next = offsets[(index + 1) % offsets.count]
      region.storeBytes(of: next, toByteOffset: offset, as: Int.self)
    }
    start = offsets.first ?? 0
    count = offsets.count
  }

  deinit { region.deallocate() }

  /// Reads every line of the chain once.
  @inline(never)
  func visit() {
    var offset = start
    for _ in 0..<count { offset = region.load(fromByteOffset: offset, as: Int.self) }
    end = offset
  }
}
