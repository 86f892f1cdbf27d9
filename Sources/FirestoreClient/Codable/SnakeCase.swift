/// The `snake_case` key conversions of the coders' key strategies, with the rules of
/// Foundation's `JSONEncoder` and `JSONDecoder` (which the Apple SDK's coders share).
enum SnakeCase {
  /// `camelCase` → `camel_case`: a word starts at an upper-case letter that follows a
  /// character that is not upper-case, and at the last capital of a run of capitals
  /// followed by a lower-case letter (`myURLProperty` → `my_url_property`); everything is
  /// lower-cased. Underscores and digits stay where they are.
  static func fromCamelCase(_ key: String) -> String {
    let characters = Array(key)
    var result = ""
    result.reserveCapacity(key.utf8.count + 4)
    for (i, character) in characters.enumerated() {
      if i > 0 && character.isUppercase {
        let followsCapital = characters[i - 1].isUppercase
        let beforeLowercase = i + 1 < characters.count && characters[i + 1].isLowercase
        if !followsCapital || beforeLowercase { result.append("_") }
      }
      result += character.lowercased()
    }
    return result
  }

  /// `snake_case` → `snakeCase`: the words between underscores are joined, the first
  /// lower-cased and the others capitalized; underscores at the start and the end stay.
  /// A key without an inner underscore is returned as it is.
  static func toCamelCase(_ key: String) -> String {
    guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
    guard let last = key.lastIndex(where: { $0 != "_" }) else { return key }
    let core = key[first...last]
    guard core.contains("_") else { return key }
    let words = core.split(separator: "_", omittingEmptySubsequences: false)
    var result = String(key[..<first])
    result += words[0].lowercased()
    for word in words.dropFirst() {
      guard let head = word.first else { continue }
      result += head.uppercased() + word.dropFirst().lowercased()
    }
    result += key[key.index(after: last)...]
    return result
  }
}
