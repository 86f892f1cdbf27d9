extension Expression {
  /// `like`: whether this string matches the SQL `LIKE` `pattern` (`%` any run, `_` one character).
  public func like(_ pattern: String) -> BooleanExpression { test("like", Constant(pattern)) }
  /// `like`: whether this string matches the SQL `LIKE` pattern `pattern` yields.
  public func like(_ pattern: Expression) -> BooleanExpression { test("like", pattern) }
  /// `regex_contains`: whether part of this string matches the regular expression.
  public func regexContains(_ pattern: String) -> BooleanExpression { test("regex_contains", Constant(pattern)) }
  /// `regex_contains`: whether part of this string matches the regular expression.
  public func regexContains(_ pattern: Expression) -> BooleanExpression { test("regex_contains", pattern) }
  /// `regex_match`: whether the whole string matches the regular expression.
  public func regexMatch(_ pattern: String) -> BooleanExpression { test("regex_match", Constant(pattern)) }
  /// `regex_match`: whether the whole string matches the regular expression.
  public func regexMatch(_ pattern: Expression) -> BooleanExpression { test("regex_match", pattern) }
  /// `regex_find`: the first match of the regular expression.
  public func regexFind(_ pattern: String) -> FunctionExpression { call("regex_find", Constant(pattern)) }
  /// `regex_find`: the first match of the regular expression.
  public func regexFind(_ pattern: Expression) -> FunctionExpression { call("regex_find", pattern) }
  /// `regex_find_all`: every match of the regular expression.
  public func regexFindAll(_ pattern: String) -> FunctionExpression { call("regex_find_all", Constant(pattern)) }
  /// `regex_find_all`: every match of the regular expression.
  public func regexFindAll(_ pattern: Expression) -> FunctionExpression { call("regex_find_all", pattern) }
  /// `string_contains`: whether this string contains `substring`.
  public func stringContains(_ substring: String) -> BooleanExpression { test("string_contains", Constant(substring)) }
  /// `string_contains`: whether this string contains the string `expression` yields.
  public func stringContains(_ expression: Expression) -> BooleanExpression { test("string_contains", expression) }
  /// `starts_with`: whether this string starts with `prefix`.
  public func startsWith(_ prefix: String) -> BooleanExpression { test("starts_with", Constant(prefix)) }
  /// `starts_with`: whether this string starts with the string `prefix` yields.
  public func startsWith(_ prefix: Expression) -> BooleanExpression { test("starts_with", prefix) }
  /// `ends_with`: whether this string ends with `suffix`.
  public func endsWith(_ suffix: String) -> BooleanExpression { test("ends_with", Constant(suffix)) }
  /// `ends_with`: whether this string ends with the string `suffix` yields.
  public func endsWith(_ suffix: Expression) -> BooleanExpression { test("ends_with", suffix) }
  /// `to_lower`: this string in lower case.
  public func toLower() -> FunctionExpression { call("to_lower") }
  /// `to_upper`: this string in upper case.
  public func toUpper() -> FunctionExpression { call("to_upper") }
  /// `trim`: this string without leading and trailing white space.
  public func trim() -> FunctionExpression { call("trim") }
  /// `trim`: this string without leading and trailing characters of `value`.
  public func trim(_ value: String) -> FunctionExpression { call("trim", Constant(value)) }
  /// `trim`: this string without leading and trailing characters `value` yields.
  public func trim(_ value: Expression) -> FunctionExpression { call("trim", value) }
  /// `ltrim`: this string without leading white space.
  public func ltrim() -> FunctionExpression { call("ltrim") }
  /// `ltrim`: this string without leading characters of `value`.
  public func ltrim(_ value: String) -> FunctionExpression { call("ltrim", Constant(value)) }
  /// `ltrim`: this string without leading characters `value` yields.
  public func ltrim(_ value: Expression) -> FunctionExpression { call("ltrim", value) }
  /// `rtrim`: this string without trailing white space.
  public func rtrim() -> FunctionExpression { call("rtrim") }
  /// `rtrim`: this string without trailing characters of `value`.
  public func rtrim(_ value: String) -> FunctionExpression { call("rtrim", Constant(value)) }
  /// `rtrim`: this string without trailing characters `value` yields.
  public func rtrim(_ value: Expression) -> FunctionExpression { call("rtrim", value) }
  /// `length`: the length of a string, bytes, array, map or vector.
  public func length() -> FunctionExpression { call("length") }
  /// `char_length`: the number of characters (Unicode code points) of this string.
  public func charLength() -> FunctionExpression { call("char_length") }
  /// `byte_length`: the number of bytes of this string (in UTF-8) or bytes value.
  public func byteLength() -> FunctionExpression { call("byte_length") }
  /// `reverse`: this string, bytes or array backwards.
  public func reverse() -> FunctionExpression { call("reverse") }
  /// `string_reverse`: this string backwards.
  public func stringReverse() -> FunctionExpression { call("string_reverse") }
  /// `join`: the elements of this array of strings, separated by `delimiter`.
  public func join(delimiter: String) -> FunctionExpression { call("join", Constant(delimiter)) }
  /// `split`: this string cut at each `delimiter`.
  public func split(delimiter: String) -> FunctionExpression { call("split", Constant(delimiter)) }
  /// `split`: this string cut at each delimiter `delimiter` yields.
  public func split(delimiter: Expression) -> FunctionExpression { call("split", delimiter) }
  /// `string_repeat`: this string `count` times.
  public func stringRepeat(_ count: Int) -> FunctionExpression { call("string_repeat", Constant(count)) }
  /// `string_repeat`: this string as many times as `count` yields.
  public func stringRepeat(_ count: Expression) -> FunctionExpression { call("string_repeat", count) }
  /// `string_replace_all`: this string with every `oldValue` replaced by `newValue`.
  public func stringReplaceAll(_ oldValue: String, with newValue: String) -> FunctionExpression {
    call("string_replace_all", Constant(oldValue), Constant(newValue))
  }
  /// `string_replace_all`: this string with every `oldValue` replaced by `newValue`.
  public func stringReplaceAll(_ oldValue: Expression, with newValue: Expression) -> FunctionExpression {
    call("string_replace_all", oldValue, newValue)
  }
  /// `string_replace_one`: this string with the first `oldValue` replaced by `newValue`.
  public func stringReplaceOne(_ oldValue: String, with newValue: String) -> FunctionExpression {
    call("string_replace_one", Constant(oldValue), Constant(newValue))
  }
  /// `string_replace_one`: this string with the first `oldValue` replaced by `newValue`.
  public func stringReplaceOne(_ oldValue: Expression, with newValue: Expression) -> FunctionExpression {
    call("string_replace_one", oldValue, newValue)
  }
  /// `string_index_of`: where `substring` first occurs in this string (-1 if nowhere).
  public func stringIndexOf(_ substring: String) -> FunctionExpression { call("string_index_of", Constant(substring)) }
  /// `string_index_of`: where the string `substring` yields first occurs in this string.
  public func stringIndexOf(_ substring: Expression) -> FunctionExpression { call("string_index_of", substring) }
  /// `string_concat`: this string followed by `strings`.
  public func stringConcat(_ strings: [Sendable]) -> FunctionExpression {
    FunctionExpression(functionName: "string_concat", args: [self] + strings.map(PipelineArgument.init))
  }
  /// `string_concat`: this string followed by the strings `strings` yield.
  public func stringConcat(_ strings: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "string_concat", args: [self] + strings)
  }
  /// `concat`: this string, bytes or array followed by `values` of the same kind.
  public func concat(_ values: [Sendable]) -> FunctionExpression {
    FunctionExpression(functionName: "concat", args: [self] + values.map(PipelineArgument.init))
  }
  /// `substring`: `length` characters of this string from `position` (to the end without one).
  public func substring(position: Int, length: Int? = nil) -> FunctionExpression {
    guard let length else { return call("substring", Constant(position)) }
    return call("substring", Constant(position), Constant(length))
  }
  /// `substring`: `length` characters of this string from `position` (to the end without one).
  public func substring(position: Expression, length: Expression? = nil) -> FunctionExpression {
    guard let length else { return call("substring", position) }
    return call("substring", position, length)
  }
  /// `snippet`: the parts of this string that match the full-text `rquery`, for `search`.
  public func snippet(_ rquery: String, maxSnippetWidth: Int? = nil, maxSnippets: Int? = nil, separator: String? = nil)
    -> Expression
  {
    var options: [String: Sendable] = [:]
    if let maxSnippetWidth { options["maxSnippetWidth"] = maxSnippetWidth }
    if let maxSnippets { options["maxSnippets"] = maxSnippets }
    if let separator { options["separator"] = separator }
    return FunctionExpression(functionName: "snippet", args: [self, Constant(rquery)], options: options)
  }
}
