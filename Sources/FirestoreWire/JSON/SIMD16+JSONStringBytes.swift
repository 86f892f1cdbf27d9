// Sixteen bytes of JSON text tested at once for what a string cannot carry as it is: a
// document's long texts are most of a large reply or commit, and both the reader and the
// writer look for these bytes in them.
extension SIMD16<UInt8> {
  /// The lanes that hold a quote, a backslash or a control character (below 0x20). UTF-8
  /// beyond ASCII is 0x80 and above, so never one of them.
  @inline(__always)
  var jsonStringSpecials: SIMDMask<SIMD16<Int8>> {
    (self .< SIMD16(repeating: 0x20)) .| (self .== SIMD16(repeating: 0x22)) .| (self .== SIMD16(repeating: 0x5C))
  }

  /// Whether any lane has its high bit set (a byte beyond ASCII).
  @inline(__always)
  var hasHighBit: Bool { Self.anyBitSet(self & SIMD16(repeating: 0x80)) }

  /// Whether any bit of `lanes` is set, tested as two words: a scan that tests its mask with
  /// `any(_:)` instead takes about twice as long a byte.
  @inline(__always)
  static func anyBitSet(_ lanes: SIMD16<UInt8>) -> Bool {
    let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    return words[0] | words[1] != 0
  }
}

extension SIMDMask<SIMD16<Int8>> {
  /// Whether any lane is set.
  @inline(__always)
  var anySet: Bool { SIMD16<UInt8>.anyBitSet(SIMD16(repeating: 0).replacing(with: 0xFF, where: self)) }
}
