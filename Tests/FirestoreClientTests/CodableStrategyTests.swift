import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// `Firestore.Encoder` and `Firestore.Decoder` as the Apple SDK exposes them: classes
/// configured through properties, with its date, data, non-conforming float and key
/// strategies, and `@ExplicitNull`.
@Suite("Codable strategies")
struct CodableStrategyTests {
  private static let date = Date(timeIntervalSince1970: 1_700_000_000.5)

  struct Event: Codable, Equatable {
    var startedAt: Date
  }

  struct Blob: Codable, Equatable {
    var payload: Data
  }

  struct Reading: Codable, Equatable {
    var value: Double
  }

  struct Profile: Codable, Equatable {
    var firstName: String
    var imageURL: String
    var userID2: Int
    var extras: [String: Int]
  }

  @Test("as in the Apple SDK, a `let` encoder is configured through its properties")
  func classSemantics() throws {
    let encoder = Firestore.Encoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let decoder = Firestore.Decoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let data = try encoder.encode(Event(startedAt: Self.date))
    #expect(data["startedAt"] as? Double == 1_700_000_000.5)
    #expect(try decoder.decode(Event.self, from: data) == Event(startedAt: Self.date))
  }

  @Test("dates: a timestamp by default, or seconds, milliseconds, ISO 8601, a format, Date's own form, a closure")
  func dateStrategies() throws {
    let event = Event(startedAt: Date(timeIntervalSince1970: 1_700_000_000))
    let encoder = Firestore.Encoder()
    let decoder = Firestore.Decoder()
    #expect(try encoder.encode(event)["startedAt"] as? Timestamp == Timestamp(seconds: 1_700_000_000, nanoseconds: 0))
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    let cases: [(Firestore.Encoder.DateEncodingStrategy, Firestore.Decoder.DateDecodingStrategy, String)] = [
      (.secondsSince1970, .secondsSince1970, "1700000000.0"),
      (.millisecondsSince1970, .millisecondsSince1970, "1700000000000.0"),
      (.iso8601, .iso8601, "2023-11-14T22:13:20Z"),
      (.formatted(formatter), .formatted(formatter), "2023-11-14 22:13:20"),
      (.deferredToDate, .deferredToDate, "721692800.0"),
      (
        .custom({ date, encoder in
          var container = encoder.singleValueContainer()
          try container.encode("day \(Int(date.timeIntervalSince1970) / 86400)")
        }),
        .custom({ decoder in
          let text = try decoder.singleValueContainer().decode(String.self)
          return Date(timeIntervalSince1970: Double(Int(text.dropFirst(4))! * 86400))
        }), "day 19675"
      ),
    ]
    for (encoding, decoding, stored) in cases {
      encoder.dateEncodingStrategy = encoding
      decoder.dateDecodingStrategy = decoding
      let data = try encoder.encode(event)
      #expect("\(data["startedAt"]!)" == stored)
      let back = try decoder.decode(Event.self, from: data)
      if case .custom = encoding {
        #expect(back.startedAt == Date(timeIntervalSince1970: 19675 * 86400))
      } else {
        #expect(back == event, "\(stored)")
      }
    }
    decoder.dateDecodingStrategy = .iso8601
    let error = #expect(throws: FirestoreError.self) { _ = try decoder.decode(Event.self, from: ["startedAt": "yesterday"]) }
    #expect(
      error?.message.contains("field \"startedAt\" expected Date but found String \"yesterday\", which is not an ISO 8601 date") == true)
  }

  @Test("data: Firestore bytes by default, or Base64, Data's own form, a closure")
  func dataStrategies() throws {
    let blob = Blob(payload: Data([0, 1, 2, 255]))
    let encoder = Firestore.Encoder()
    let decoder = Firestore.Decoder()
    #expect(try encoder.encode(blob)["payload"] as? Data == blob.payload)
    encoder.dataEncodingStrategy = .base64
    decoder.dataDecodingStrategy = .base64
    #expect(try encoder.encode(blob)["payload"] as? String == "AAEC/w==")
    #expect(try decoder.decode(Blob.self, from: encoder.encode(blob)) == blob)
    encoder.dataEncodingStrategy = .deferredToData
    decoder.dataDecodingStrategy = .deferredToData
    #expect(try encoder.encode(blob)["payload"] as? [Int] == [0, 1, 2, 255])
    #expect(try decoder.decode(Blob.self, from: encoder.encode(blob)) == blob)
    encoder.dataEncodingStrategy = .custom({ data, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(data.count)
    })
    #expect(try encoder.encode(blob)["payload"] as? Int == 4)
  }

  @Test("infinite and NaN numbers: refused by default naming the field, or written and read as strings")
  func nonConformingFloats() throws {
    let encoder = Firestore.Encoder()
    let error = #expect(throws: FirestoreError.self) { _ = try encoder.encode(Reading(value: .infinity)) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("field \"value\"") == true && error?.message.contains("inf") == true, "\(String(describing: error))")
    encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    #expect(try encoder.encode(Reading(value: -.infinity))["value"] as? String == "-inf")
    #expect(try encoder.encode(Reading(value: .nan))["value"] as? String == "nan")
    let decoder = Firestore.Decoder()
    #expect(throws: FirestoreError.self) { _ = try decoder.decode(Reading.self, from: ["value": "+inf"]) }
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    #expect(try decoder.decode(Reading.self, from: ["value": "+inf"]).value == .infinity)
    #expect(try decoder.decode(Reading.self, from: ["value": "nan"]).value.isNaN)
    // A NaN stored as a number decodes as it is, whatever the strategy.
    #expect(try Firestore.Decoder().decode(Reading.self, from: ["value": Double.nan]).value.isNaN)
  }

  @Test("keys: snake_case both ways, or a closure; a [String: …] dictionary keeps its keys")
  func keyStrategies() throws {
    let profile = Profile(firstName: "Ada", imageURL: "u", userID2: 7, extras: ["someKey": 1])
    let encoder = Firestore.Encoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let data = try encoder.encode(profile)
    #expect(Set(data.keys) == ["first_name", "image_url", "user_id2", "extras"])
    #expect((data["extras"] as? [String: Int]) == ["someKey": 1])
    struct Person: Decodable {
      var firstName: String
      var imageUrl: String
      var extras: [String: Int]
    }
    let decoder = Firestore.Decoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    // As with JSONDecoder, `image_url` reads as `imageUrl`: an acronym does not survive the round trip.
    let back = try decoder.decode(Person.self, from: ["first_name": "Ada", "image_url": "u", "extras": ["some_key": 1]])
    #expect(back.firstName == "Ada" && back.imageUrl == "u" && back.extras == ["some_key": 1])
    encoder.keyEncodingStrategy = .custom({ path in CodingPath.NameKey(path.last!.stringValue.uppercased()) })
    #expect(Set(try encoder.encode(profile).keys) == ["FIRSTNAME", "IMAGEURL", "USERID2", "EXTRAS"])
  }

  @Test("snake_case conversion follows Foundation's rules")
  func snakeCase() {
    #expect(SnakeCase.fromCamelCase("myURLProperty") == "my_url_property")
    #expect(SnakeCase.fromCamelCase("URLProperty") == "url_property")
    #expect(SnakeCase.fromCamelCase("version2Name") == "version2_name")
    #expect(SnakeCase.fromCamelCase("_privateValue") == "_private_value")
    #expect(SnakeCase.fromCamelCase("simple") == "simple")
    #expect(SnakeCase.toCamelCase("one_two_three") == "oneTwoThree")
    #expect(SnakeCase.toCamelCase("_one_two_") == "_oneTwo_")
    #expect(SnakeCase.toCamelCase("image_URL") == "imageUrl")
    #expect(SnakeCase.toCamelCase("plain") == "plain")
  }

  @Test("@ExplicitNull writes null for nil and reads null or a missing field as nil")
  func explicitNull() throws {
    struct Profile: Codable, Equatable {
      var name: String
      @ExplicitNull var nickname: String?
      var age: Int?
    }
    let data = try Firestore.Encoder().encode(Profile(name: "Ada", nickname: nil, age: nil))
    #expect(Set(data.keys) == ["name", "nickname"])
    #expect(data["nickname"] is NSNull)
    #expect(try Firestore.Encoder().encode(Profile(name: "Ada", nickname: "A", age: 3))["nickname"] as? String == "A")
    #expect(try Firestore.Decoder().decode(Profile.self, from: ["name": "Ada", "nickname": NSNull()]).nickname == nil)
    #expect(try Firestore.Decoder().decode(Profile.self, from: ["name": "Ada"]).nickname == nil)
    #expect(try Firestore.Decoder().decode(Profile.self, from: ["name": "Ada", "nickname": "A"]).nickname == "A")
  }

  @Test("the decoder takes a [String: Any] built by hand")
  func decodesAnyDictionary() throws {
    struct City: Decodable {
      var name: String
      var population: Int
      var tags: [String]
    }
    let data: [String: Any] = ["name": "Paris", "population": NSNumber(value: 2_100_000), "tags": ["capital"] as [Any]]
    let city = try Firestore.Decoder().decode(City.self, from: data)
    #expect(city.population == 2_100_000 && city.tags == ["capital"])
  }
}
