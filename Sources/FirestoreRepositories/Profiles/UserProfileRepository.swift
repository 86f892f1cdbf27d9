import FirestoreClient

/// A profile screen's data without a "Name Unavailable" flash while it loads: `users/{uid}` and
/// `users/{uid}/privateUserInfo/private` read as ``LoadState`` streams.
///
/// ``profile()`` yields `.loading(cached: nil)` at once, then `.loading(cached: value)`
/// when the local cache has the document, then `.loaded` with the server's version. It
/// yields `.failed` only at the end, when neither the cache nor the server produced a
/// value (or the server says the document does not exist) — never while a read is in
/// flight. When the server cannot be reached but the cache had a value, the last state is
/// `.loaded` with the cached value. ``followProfile()`` does the same with a listener and
/// keeps following changes.
///
/// ```swift
/// let repository = try UserProfileRepository(firestore: db, uid: currentUser.uid)
/// for await state in repository.profile() {
///   render(state)  // placeholder, cached name, fresh name — or, only at the end, the error
/// }
/// ```
public struct UserProfileRepository: Sendable {
  /// The database.
  public let firestore: Firestore
  /// The user whose profile this is.
  public let uid: String

  /// Creates the repository for user `uid`.
  ///
  /// - Throws: `invalidArgument` when `uid` is empty or contains `/` (it must be one
  ///   document ID).
  public init(firestore: Firestore, uid: String) throws {
    guard !uid.isEmpty, !uid.contains("/") else {
      throw FirestoreError(.invalidArgument, "user ID \"\(uid)\" is not a document ID (empty, or contains '/')")
    }
    self.firestore = firestore
    self.uid = uid
  }

  /// `users/{uid}`.
  public var profileReference: DocumentReference { firestore.collection("users").document(uid) }

  /// `users/{uid}/privateUserInfo/private`.
  public var privateInfoReference: DocumentReference {
    profileReference.collection("privateUserInfo").document("private")
  }

  /// The public profile: cache first, then the server (see the type's summary). The
  /// stream ends after the server's answer.
  public func profile() -> AsyncStream<LoadState<UserProfile>> {
    DocumentLoader.load(profileReference, decode: decodeProfile)
  }

  /// The private part, loaded the same way as ``profile()``.
  public func privateInfo() -> AsyncStream<LoadState<PrivateUserInfo>> {
    DocumentLoader.load(privateInfoReference) { try $0.data(as: PrivateUserInfo.self) }
  }

  /// The public profile, followed live: the cached value first (as `.loading`), then
  /// `.loaded` with the server's and every later change; `.failed(notFound)` while the
  /// document does not exist. The stream runs until the consumer stops iterating, or ends
  /// after a listener error (with `.failed` only when no value was ever seen).
  public func followProfile() -> AsyncStream<LoadState<UserProfile>> {
    DocumentLoader.follow(profileReference, decode: decodeProfile)
  }

  /// The private part, followed live like ``followProfile()``.
  public func followPrivateInfo() -> AsyncStream<LoadState<PrivateUserInfo>> {
    DocumentLoader.follow(privateInfoReference) { try $0.data(as: PrivateUserInfo.self) }
  }

  /// The final state of ``profile()``: `.loaded` or `.failed`.
  public func loadProfile() async -> LoadState<UserProfile> {
    var last = LoadState<UserProfile>.loading(cached: nil)
    for await state in profile() { last = state }
    return last
  }

  /// Writes the public profile, e.g. at sign-up, and returns when the server has it.
  public func saveProfile(_ profile: UserProfile) async throws {
    try await profileReference.setData(Firestore.Encoder().encode(profile))
  }

  /// Writes the private part and returns when the server has it.
  public func savePrivateInfo(_ info: PrivateUserInfo) async throws {
    try await privateInfoReference.setData(Firestore.Encoder().encode(info))
  }

  /// Decodes a profile, taking the user ID from the document when the field is absent.
  private var decodeProfile: @Sendable (DocumentSnapshot) throws -> UserProfile {
    { snapshot in
      var profile = try snapshot.data(as: UserProfile.self)
      if profile.uid == UserProfile.unavailable { profile.uid = snapshot.documentID }
      return profile
    }
  }
}
