import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// A database that is never contacted: these tests only build and read values.
private let db = Firestore(projectID: "p", settings: .emulator(host: "127.0.0.1:1"))
private let documentsRoot = "projects/p/databases/(default)/documents"

private struct Address: Codable, Equatable {
  var street: String
  var zip: Int
}

private enum Kind: String, Codable {
  case city
  case town
}

private enum Rank: Int, Codable {
  case low = 1
  case high = 2
}

private struct City: Codable, Equatable {
  var name: String
  var population: Int
  var small: Int8
  var unsigned: UInt32
  var ratio: Float
  var area: Double
  var capital: Bool
  var address: Address
  var tags: [String]
  var districts: [Address]
  var kind: Kind
  var rank: Rank
  var founded: Date
  var photo: Data
  var updated: Timestamp
  var location: GeoPoint
  var mayor: DocumentReference
  var nickname: String?
  var scores: [String: Int]
}

private func sampleCity() -> City {
  City(
    name: "Springfield", population: 30_720, small: -5, unsigned: 4_000_000_000, ratio: 0.5, area: 12.75, capital: false,
    address: Address(street: "Evergreen Terrace", zip: 49007), tags: ["a", "b"],
    districts: [Address(street: "Main", zip: 1), Address(street: "Side", zip: 2)], kind: .town, rank: .high,
    founded: Date(timeIntervalSince1970: 1_700_000_000.25), photo: Data([0, 1, 2, 255]),
    updated: Timestamp(seconds: 1_600_000_000, nanoseconds: 123_456_789), location: GeoPoint(latitude: 44.05, longitude: -123.09),
    mayor: db.collection("people").document("quimby"), nickname: "Springy", scores: ["x": 1, "y": 2])
}

/// What a write stores and a read returns: encoded data through the value reader, back
/// through the value writer, as `snapshot.data()` would give it.
private func storedAndRead(_ data: [String: any Sendable]) throws -> [String: any Sendable] {
  var reader = UserDataReader(firestore: db, context: .set)
  return UserDataWriter(firestore: db).convert(try reader.readFields(data))
}

/// The `FirestoreError` thrown by `body`, which must throw one.
private func firestoreError(_ body: () throws -> Void) throws -> FirestoreError {
  do {
    try body()
  } catch let error as FirestoreError {
    return error
  } catch {
    Issue.record("expected a FirestoreError, got \(type(of: error)): \(error)")
    throw error
  }
  Issue.record("expected an error, got none")
  throw FirestoreError(.unknown, "no error")
}

@Suite("Codable")
struct CodableTests {
  // MARK: Encoding

  @Test func encodesNativeTypes() throws {
    let city = sampleCity()
    let data = try Firestore.Encoder().encode(city)

    #expect(data["name"] as? String == "Springfield")
    #expect(data["population"] as? Int == 30_720)
    #expect(data["small"] as? Int == -5)
    #expect(data["unsigned"] as? Int == 4_000_000_000)
    #expect(data["ratio"] as? Double == 0.5)
    #expect(data["area"] as? Double == 12.75)
    #expect(data["capital"] as? Bool == false)
    #expect(data["kind"] as? String == "town")
    #expect(data["rank"] as? Int == 2)
    // As the Apple SDK's encoder, a date is written as the timestamp Firestore stores.
    #expect(data["founded"] as? Timestamp == Timestamp(date: city.founded))
    #expect(data["photo"] as? Data == city.photo)
    #expect(data["updated"] as? Timestamp == city.updated)
    #expect(data["location"] as? GeoPoint == city.location)
    #expect(data["mayor"] as? DocumentReference == city.mayor)
    #expect(data["nickname"] as? String == "Springy")

    let address = try #require(data["address"] as? [String: any Sendable])
    #expect(address["street"] as? String == "Evergreen Terrace")
    #expect(address["zip"] as? Int == 49007)
    let tags = try #require(data["tags"] as? [any Sendable])
    #expect(tags.compactMap { $0 as? String } == ["a", "b"])
    let districts = try #require(data["districts"] as? [any Sendable])
    #expect(districts.count == 2)
    #expect((districts[1] as? [String: any Sendable])?["street"] as? String == "Side")
    let scores = try #require(data["scores"] as? [String: any Sendable])
    #expect(scores["y"] as? Int == 2)
  }

  @Test func encodedDataIsAcceptedByTheValueReader() throws {
    let city = sampleCity()
    var reader = UserDataReader(firestore: db, context: .set)
    let fields = try reader.readFields(try Firestore.Encoder().encode(city))

    let expected: [String: FirestoreWire.Value] = [
      "name": .string("Springfield"),
      "population": .integer(30_720),
      "small": .integer(-5),
      "unsigned": .integer(4_000_000_000),
      "ratio": .double(0.5),
      "area": .double(12.75),
      "capital": .boolean(false),
      "address": .map(["street": .string("Evergreen Terrace"), "zip": .integer(49007)]),
      "tags": .array([.string("a"), .string("b")]),
      "districts": .array([
        .map(["street": .string("Main"), "zip": .integer(1)]), .map(["street": .string("Side"), "zip": .integer(2)]),
      ]),
      "kind": .string("town"),
      "rank": .integer(2),
      "founded": .timestamp(Timestamp(seconds: 1_700_000_000, nanoseconds: 250_000_000)),
      "photo": .bytes(Data([0, 1, 2, 255])),
      // Cut to the microsecond, as Firestore stores it.
      "updated": .timestamp(Timestamp(seconds: 1_600_000_000, nanoseconds: 123_456_000)),
      "location": .geoPoint(GeoPoint(latitude: 44.05, longitude: -123.09)),
      "mayor": .reference("\(documentsRoot)/people/quimby"),
      "nickname": .string("Springy"),
      "scores": .map(["x": .integer(1), "y": .integer(2)]),
    ]
    #expect(fields == expected)
    #expect(reader.transforms.isEmpty)
  }

  @Test func roundTripsThroughStoredValues() throws {
    let city = sampleCity()
    let read = try storedAndRead(try Firestore.Encoder().encode(city))
    #expect(read["founded"] as? Timestamp != nil)  // what snapshot.data() gives for a Date
    var decoded = try Firestore.Decoder().decode(City.self, from: read)
    // Stored to the microsecond, as Firestore stores it.
    #expect(decoded.updated == Timestamp(seconds: 1_600_000_000, nanoseconds: 123_456_000))
    decoded.updated = city.updated
    #expect(decoded == city)
  }

  @Test func encodesDictionariesAsDocuments() throws {
    let data = try Firestore.Encoder().encode(["a": [1, 2], "b": [3]])
    #expect((data["a"] as? [any Sendable])?.compactMap { $0 as? Int } == [1, 2])
    let decoded = try Firestore.Decoder().decode([String: [Int]].self, from: try storedAndRead(data))
    #expect(decoded == ["a": [1, 2], "b": [3]])
  }

  @Test func rejectsTopLevelValuesThatAreNotKeyed() throws {
    let encoder = Firestore.Encoder()
    let int = try firestoreError { _ = try encoder.encode(42) }
    #expect(int.code == .invalidArgument)
    #expect(int.message == "Firestore.Encoder can only encode a struct, class or dictionary as a document, got Int")
    let array = try firestoreError { _ = try encoder.encode(["a", "b"]) }
    #expect(array.message == "Firestore.Encoder can only encode a struct, class or dictionary as a document, got Array<String>")
    let timestamp = try firestoreError { _ = try encoder.encode(Timestamp(seconds: 1, nanoseconds: 0)) }
    #expect(timestamp.message.hasSuffix("got Timestamp"))
    // As the Apple SDK's encoder throws, under ours.
    let reference = try firestoreError { _ = try encoder.encode(db.document("c/d")) }
    guard case EncodingError.invalidValue? = reference.underlyingError else {
      Issue.record("underlying error: \(String(describing: reference.underlyingError))")
      return
    }
  }

  @Test func rejectsUnsignedIntegersAboveInt64Max() throws {
    struct Counter: Codable {
      var inner: Inner
      struct Inner: Codable { var values: [UInt64] }
    }
    let ok = try Firestore.Encoder().encode(Counter(inner: .init(values: [UInt64(Int64.max)])))
    let values = (ok["inner"] as? [String: any Sendable])?["values"] as? [any Sendable]
    #expect(values?.first as? Int == Int.max)

    let error = try firestoreError { _ = try Firestore.Encoder().encode(Counter(inner: .init(values: [1, UInt64.max]))) }
    #expect(error.code == .invalidArgument)
    let expected =
      "cannot encode Counter: field \"inner.values[1]\" has integer 18446744073709551615, "
      + "which does not fit in a 64-bit signed integer"
    #expect(error.message == expected)
    guard case EncodingError.invalidValue? = error.underlyingError else {
      Issue.record("underlying error: \(String(describing: error.underlyingError))")
      return
    }
  }

  @Test func encodesURLsAsStrings() throws {
    struct Link: Codable, Equatable { var url: URL }
    let link = Link(url: URL(string: "https://example.com/a?b=c")!)
    let data = try Firestore.Encoder().encode(link)
    #expect(data["url"] as? String == "https://example.com/a?b=c")
    #expect(try Firestore.Decoder().decode(Link.self, from: data) == link)
    let error = try firestoreError { _ = try Firestore.Decoder().decode(Link.self, from: ["url": 3]) }
    #expect(error.message == "cannot decode Link: field \"url\" expected URL but found Int 3")
  }

  @Test func codesSuperclassesThroughSuperEncoders() throws {
    let data = try Firestore.Encoder().encode(Dog(name: "Rex", breed: "collie"))
    #expect(data["breed"] as? String == "collie")
    #expect((data["super"] as? [String: any Sendable])?["name"] as? String == "Rex")
    let dog = try Firestore.Decoder().decode(Dog.self, from: data)
    #expect(dog.name == "Rex")
    #expect(dog.breed == "collie")

    let error = try firestoreError { _ = try Firestore.Decoder().decode(Dog.self, from: ["breed": "collie"]) }
    #expect(error.message == "cannot decode Dog: field \"super\" expected a map but found null")
  }

  // MARK: Optionals

  private struct Profile: Codable, Equatable {
    var name: String
    var age: Int?
    var nickname: String?
    var address: Address?
    var aliases: [String?]
  }

  @Test func omitsNilOptionalsByDefault() throws {
    let profile = Profile(name: "Ada", age: nil, nickname: nil, address: nil, aliases: ["x", nil])
    let data = try Firestore.Encoder().encode(profile)
    #expect(Set(data.keys) == ["name", "aliases"])
    // A nil inside an array keeps its position as null.
    let aliases = try #require(data["aliases"] as? [any Sendable])
    #expect(aliases.count == 2)
    #expect(aliases[1] is NSNull)
    #expect(try Firestore.Decoder().decode(Profile.self, from: try storedAndRead(data)) == profile)
  }

  @Test func writesNullForNilWhenAsked() throws {
    let encoder = Firestore.Encoder()
    encoder.encodesNilAsNull = true
    let profile = Profile(name: "Ada", age: nil, nickname: "A", address: nil, aliases: [])
    let data = try encoder.encode(profile)
    #expect(Set(data.keys) == ["name", "age", "nickname", "address", "aliases"])
    #expect(data["age"] is NSNull)
    #expect(data["address"] is NSNull)
    #expect(data["nickname"] as? String == "A")

    var reader = UserDataReader(firestore: db, context: .set)
    let fields = try reader.readFields(data)
    #expect(fields["age"] == .null)
    #expect(try Firestore.Decoder().decode(Profile.self, from: try storedAndRead(data)) == profile)
  }

  @Test func decodesNullAndMissingAsNil() throws {
    let decoded = try Firestore.Decoder().decode(
      Profile.self, from: ["name": "Ada", "age": NSNull(), "aliases": [NSNull(), "b"] as [any Sendable]])
    #expect(decoded == Profile(name: "Ada", age: nil, nickname: nil, address: nil, aliases: [nil, "b"]))
  }

  // MARK: @DocumentID

  private struct Named: Codable, Equatable {
    @DocumentID var id: String?
    var name: String
  }

  private struct Linked: Codable {
    @DocumentID var ref: DocumentReference?
    var name: String
  }

  @Test func documentIDIsNotWritten() throws {
    let data = try Firestore.Encoder().encode(Named(id: "ignored", name: "x"))
    #expect(Set(data.keys) == ["name"])
    let encoder = Firestore.Encoder()
    encoder.encodesNilAsNull = true
    #expect(Set(try encoder.encode(Linked(ref: nil, name: "x")).keys) == ["name"])
  }

  @Test func documentIDComesFromTheReference() throws {
    let ref = db.collection("c").document("d")
    let decoder = Firestore.Decoder()
    #expect(try decoder.decode(Named.self, from: ["name": "x"], in: ref) == Named(id: "d", name: "x"))
    // Whatever the data holds under the same name.
    #expect(try decoder.decode(Named.self, from: ["name": "x", "id": "other"], in: ref).id == "d")
    #expect(try decoder.decode(Named.self, from: ["name": "x", "id": 7], in: ref).id == "d")
    // No reference: nil.
    #expect(try decoder.decode(Named.self, from: ["name": "x", "id": "other"]) == Named(name: "x"))

    let linked = try decoder.decode(Linked.self, from: ["name": "x"], in: ref)
    #expect(linked.ref == ref)
    #expect(try decoder.decode(Linked.self, from: ["name": "x"]).ref == nil)
  }

  // MARK: @ServerTimestamp

  private struct Message: Codable, Equatable {
    var text: String
    @ServerTimestamp var sentAt: Date?
    @ServerTimestamp var editedAt: Timestamp?
  }

  @Test func nilServerTimestampBecomesTheSentinel() throws {
    let data = try Firestore.Encoder().encode(Message(text: "hi"))
    let sentinel = try #require(data["sentAt"] as? FieldValue)
    guard case .serverTimestamp = sentinel.kind else {
      Issue.record("expected FieldValue.serverTimestamp(), got \(sentinel.methodName)")
      return
    }
    #expect(data["editedAt"] is FieldValue)

    var reader = UserDataReader(firestore: db, context: .set)
    let fields = try reader.readFields(data)
    #expect(fields == ["text": .string("hi")])
    #expect(reader.transforms.map(\.0.description).sorted() == ["editedAt", "sentAt"])
    #expect(reader.transforms.allSatisfy { $0.1 == .serverTimestamp })
  }

  @Test func setServerTimestampIsWrittenAsItself() throws {
    let date = Date(timeIntervalSince1970: 1_000_000)
    let timestamp = Timestamp(seconds: 5, nanoseconds: 6_000)
    let message = Message(text: "hi", sentAt: date, editedAt: timestamp)
    let data = try Firestore.Encoder().encode(message)
    #expect(data["sentAt"] as? Timestamp == Timestamp(date: date))
    #expect(data["editedAt"] as? Timestamp == timestamp)
    #expect(try Firestore.Decoder().decode(Message.self, from: try storedAndRead(data)) == message)
  }

  @Test func serverTimestampDecodesNullOrMissingAsNil() throws {
    let decoder = Firestore.Decoder()
    #expect(try decoder.decode(Message.self, from: ["text": "hi"]) == Message(text: "hi"))
    #expect(try decoder.decode(Message.self, from: ["text": "hi", "sentAt": NSNull()]) == Message(text: "hi"))
    let decoded = try decoder.decode(Message.self, from: ["text": "hi", "sentAt": Timestamp(seconds: 10, nanoseconds: 0)])
    #expect(decoded.sentAt == Date(timeIntervalSince1970: 10))
  }

  // MARK: Decoding numbers

  private struct Numbers: Codable, Equatable {
    var int: Int
    var byte: UInt8
    var double: Double
    var float: Float
  }

  @Test func convertsNumbersThatFitExactly() throws {
    let decoded = try Firestore.Decoder().decode(Numbers.self, from: ["int": 3.0, "byte": 200, "double": 7, "float": 0.25])
    #expect(decoded == Numbers(int: 3, byte: 200, double: 7, float: 0.25))
  }

  @Test func rejectsFractionalDoublesForIntegers() throws {
    let error = try firestoreError { _ = try Firestore.Decoder().decode(Numbers.self, from: ["int": 2.5]) }
    #expect(error.code == .invalidArgument)
    #expect(error.message == "cannot decode Numbers: field \"int\" expected Int but found Double 2.5, which is not a whole number")
    let huge = try firestoreError { _ = try Firestore.Decoder().decode(Numbers.self, from: ["int": 1e20]) }
    #expect(huge.message == "cannot decode Numbers: field \"int\" expected Int but found Double 1e+20, which is out of range")
  }

  @Test func rejectsIntegersOutOfRange() throws {
    let data: [String: any Sendable] = ["int": 1, "byte": 300, "double": 1.0, "float": 1.0]
    let error = try firestoreError { _ = try Firestore.Decoder().decode(Numbers.self, from: data) }
    #expect(error.message == "cannot decode Numbers: field \"byte\" expected UInt8 but found Int 300, which is out of range")
    let negative = try firestoreError { _ = try Firestore.Decoder().decode([String: UInt].self, from: ["n": -1]) }
    #expect(negative.message.hasSuffix("field \"n\" expected UInt but found Int -1, which is out of range"))
    let float = try firestoreError { _ = try Firestore.Decoder().decode([String: Float].self, from: ["f": 1e300]) }
    #expect(float.message.hasSuffix("field \"f\" expected Float but found Double 1e+300, which is out of range"))
  }

  // MARK: Decoding errors

  @Test func namesTheFieldAndTheValueFound() throws {
    var data = try storedAndRead(try Firestore.Encoder().encode(sampleCity()))
    let decoder = Firestore.Decoder()

    data["population"] = "many"
    let mismatch = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(mismatch.code == .invalidArgument)
    #expect(mismatch.message == "cannot decode City: field \"population\" expected Int but found String \"many\"")
    // The Swift error the decoder met stays reachable, for code ported from `catch DecodingError…`.
    guard case DecodingError.typeMismatch(_, let context)? = mismatch.underlyingError else {
      Issue.record("underlying error: \(String(describing: mismatch.underlyingError))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["population"])

    data["population"] = 1
    data["tags"] = ["a", "b", 5] as [any Sendable]
    let element = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(element.message == "cannot decode City: field \"tags[2]\" expected String but found Int 5")

    data["tags"] = ["a"] as [any Sendable]
    data["address"] = ["street": "x", "zip": NSNull()] as [String: any Sendable]
    let null = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(null.message == "cannot decode City: field \"address.zip\" expected Int but found null")

    data["address"] = "Evergreen"
    let map = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(map.message == "cannot decode City: field \"address\" expected Address (a map) but found String \"Evergreen\"")

    data["address"] = ["street": "x", "zip": 1] as [String: any Sendable]
    data["districts"] = [["street": "y"] as [String: any Sendable]] as [any Sendable]
    let nested = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(nested.message == "cannot decode City: field \"districts[0].zip\" is missing")

    data["districts"] = [] as [any Sendable]
    data["updated"] = 12
    let timestamp = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(timestamp.message == "cannot decode City: field \"updated\" expected Timestamp but found Int 12")

    data["updated"] = Timestamp(seconds: 1, nanoseconds: 0)
    data["mayor"] = "people/quimby"
    let reference = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(reference.message == "cannot decode City: field \"mayor\" expected DocumentReference but found String \"people/quimby\"")

    data["mayor"] = db.document("people/quimby")
    data["kind"] = "village"
    let raw = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(raw.message.hasPrefix("cannot decode City: field \"kind\": "))
    #expect(raw.message.contains("village"))

    data["kind"] = "city"
    data["name"] = nil
    let missing = try firestoreError { _ = try decoder.decode(City.self, from: data) }
    #expect(missing.message == "cannot decode City: field \"name\" is missing")
    guard case DecodingError.keyNotFound(let key, _)? = missing.underlyingError else {
      Issue.record("underlying error: \(String(describing: missing.underlyingError))")
      return
    }
    #expect(key.stringValue == "name")
  }

  @Test func errorsFromUserCodeBecomeFirestoreErrors() throws {
    struct Even: Codable {
      var value: Int
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(Int.self, forKey: .value)
        guard value % 2 == 0 else {
          throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "\(value) is odd")
        }
      }
    }
    let data: [String: any Sendable] = ["e": ["value": 3] as [String: any Sendable]]
    let error = try firestoreError { _ = try Firestore.Decoder().decode([String: Even].self, from: data) }
    #expect(error.code == .invalidArgument)
    #expect(error.message == "cannot decode Dictionary<String, Even>: field \"e.value\": 3 is odd")
  }

  @Test func codableCodeCanCatchDecodingErrors() throws {
    // Lenient decoding in user code relies on the coders throwing DecodingError internally.
    struct Lenient: Decodable {
      var count: Int
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
          count = try container.decode(Int.self, forKey: .count)
        } catch DecodingError.typeMismatch {
          count = Int(try container.decode(String.self, forKey: .count)) ?? 0
        }
      }
      enum CodingKeys: String, CodingKey { case count }
    }
    #expect(try Firestore.Decoder().decode(Lenient.self, from: ["count": "12"]).count == 12)
  }

  // MARK: Other coders

  @Test func timestampAndGeoPointUseTheirFieldsWithOtherCoders() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let timestamp = Timestamp(seconds: 1_600_000_000, nanoseconds: 5)
    #expect(String(decoding: try encoder.encode(timestamp), as: UTF8.self) == #"{"nanoseconds":5,"seconds":1600000000}"#)
    let point = GeoPoint(latitude: 1.5, longitude: -2.5)
    #expect(String(decoding: try encoder.encode(point), as: UTF8.self) == #"{"latitude":1.5,"longitude":-2.5}"#)
    #expect(try JSONDecoder().decode(Timestamp.self, from: try encoder.encode(timestamp)) == timestamp)
    #expect(try JSONDecoder().decode(GeoPoint.self, from: try encoder.encode(point)) == point)
  }

  @Test func referencesAndSentinelsNeedTheFirestoreCoders() throws {
    // The Apple SDK's own error types, so that code catching them builds and catches.
    let ref = db.collection("c").document("d")
    #expect {
      _ = try JSONEncoder().encode(["r": ref])
    } throws: {
      guard case FirestoreEncodingError.encodingIsNotSupported(let text) = $0 else { return false }
      return text == "DocumentReference c/d at field \"r\" can only be encoded by Firestore.Encoder"
    }
    #expect {
      _ = try JSONDecoder().decode([String: DocumentReference].self, from: Data(#"{"r":"c/d"}"#.utf8))
    } throws: {
      guard case FirestoreDecodingError.decodingIsNotSupported(let text) = $0 else { return false }
      return text == "DocumentReference at field \"r\" can only be decoded by Firestore.Decoder"
    }
    #expect {
      _ = try JSONEncoder().encode(["f": FieldValue.delete()])
    } throws: {
      guard case FirestoreEncodingError.encodingIsNotSupported(let text) = $0 else { return false }
      return text == "FieldValue.delete() at field \"f\" can only be encoded by Firestore.Encoder"
    }
  }

  @Test func wrappersStoreOptionalValuesWithOtherCoders() throws {
    struct Cached: Codable, Equatable {
      @DocumentID var id: String?
      @ServerTimestamp var at: Date?
      var name: String
    }
    let value = Cached(id: "d", at: Date(timeIntervalSince1970: 100), name: "x")
    #expect(try JSONDecoder().decode(Cached.self, from: try JSONEncoder().encode(value)) == value)
    let empty = try JSONDecoder().decode(Cached.self, from: Data(#"{"name":"x"}"#.utf8))
    #expect(empty == Cached(id: nil, at: nil, name: "x"))
  }

  // MARK: Snapshots

  @Test func snapshotsDecodeWithTheirReference() throws {
    let ref = db.collection("c").document("d")
    let document = Document(name: "\(documentsRoot)/c/d", fields: ["name": .string("x")])
    let snapshot = DocumentSnapshot(reference: ref, document: document, readTime: nil)
    #expect(try snapshot.data(as: Named.self) == Named(id: "d", name: "x"))
    let queryDocument = QueryDocumentSnapshot(reference: ref, document: document, readTime: nil)
    #expect(try queryDocument.data(as: Named.self) == Named(id: "d", name: "x"))

    let missing = DocumentSnapshot(reference: ref, document: nil, readTime: nil)
    let error = try firestoreError { _ = try missing.data(as: Named.self) }
    #expect(error.code == .notFound)
    #expect(error.message == "document c/d does not exist")
  }
}

/// A class whose subclass codes it through `superEncoder()` / `superDecoder()`.
private class Animal: Codable {
  var name: String

  init(name: String) { self.name = name }
}

private final class Dog: Animal {
  var breed: String

  private enum CodingKeys: String, CodingKey { case breed }

  init(name: String, breed: String) {
    self.breed = breed
    super.init(name: name)
  }

  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    breed = try container.decode(String.self, forKey: .breed)
    try super.init(from: container.superDecoder())
  }

  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(breed, forKey: .breed)
    try super.encode(to: container.superEncoder())
  }
}

@Suite("Codable: vectors")
struct VectorCodableTests {
  private struct Item: Codable, Equatable {
    var embedding: VectorValue
  }

  @Test("Firestore's coders keep a VectorValue; other coders see an array of numbers")
  func coders() throws {
    let item = Item(embedding: VectorValue([0.5, 2]))
    let tree = try Firestore.Encoder().encode(item)
    #expect(tree["embedding"] as? VectorValue == VectorValue([0.5, 2]))
    #expect(try Firestore.Decoder().decode(Item.self, from: tree) == item)
    let json = try JSONEncoder().encode(item)
    #expect(String(decoding: json, as: UTF8.self) == #"{"embedding":[0.5,2]}"#)
    #expect(try JSONDecoder().decode(Item.self, from: json) == item)
    #expect(VectorValue([Float(0.25)]) == FieldValue.vector([0.25]))
  }

  @Test("a vector field decoded into something else, or something else into a vector, names both")
  func mismatches() throws {
    let wrong = #expect(throws: FirestoreError.self) {
      try Firestore.Decoder().decode(Item.self, from: ["embedding": "not a vector"])
    }
    #expect(wrong?.message.contains("expected VectorValue but found String") == true, "\(String(describing: wrong))")
    struct Text: Decodable { var embedding: String }
    let other = #expect(throws: FirestoreError.self) {
      try Firestore.Decoder().decode(Text.self, from: ["embedding": VectorValue([1, 2])])
    }
    #expect(other?.message.contains("a vector of 2 dimensions") == true, "\(String(describing: other))")
  }
}
