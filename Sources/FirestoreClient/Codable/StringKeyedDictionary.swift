/// Marks `[String: …]` dictionaries, whose keys are data rather than property names: the
/// coders' key strategies leave their keys as they are, as in the Apple SDK.
protocol StringKeyedDictionary {}

extension Dictionary: StringKeyedDictionary where Key == String {}
