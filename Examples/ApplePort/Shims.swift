// What the seeds use besides Firestore, reduced to what runs on Linux: Combine's
// `ObservableObject` and `@Published` (no SwiftUI here to observe them), Firebase Auth's
// signed-in user (taken from the environment), and the app's model types.
import FirestoreClient
import Foundation

/// Stands in for Combine's protocol of the same name.
protocol ObservableObject: AnyObject {}

/// Stands in for Combine's property wrapper of the same name: a plain stored value.
@propertyWrapper
struct Published<Value> {
  var wrappedValue: Value
  init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

/// Firebase Auth's signed-in user, as much of it as the seeds read.
struct AuthUser {
  let uid: String
  let email: String?
}

/// Stands in for Firebase Auth: the user is `APPLE_PORT_UID` (and `APPLE_PORT_EMAIL`).
final class Auth {
  private static let shared = Auth()
  static func auth() -> Auth { shared }

  var currentUser: AuthUser? {
    let environment = ProcessInfo.processInfo.environment
    return environment["APPLE_PORT_UID"].map { AuthUser(uid: $0, email: environment["APPLE_PORT_EMAIL"]) }
  }
}

/// The seed's app-wide holder of the Firebase services.
final class FirebaseManager {
  static let shared = FirebaseManager()
  let auth = Auth.auth()
  let firestore = Firestore.firestore()
}

/// An article of seed 000.
struct Article: Codable, Identifiable {
  @DocumentID var id: String?
  var title: String
  var content: String
  var category: String
  var publishedAt: Date
}

/// A meal plan of seed 004.
struct MealPlan {
  var docID: String
  var title: String
  var recipeSource: String?
  var estimatedTime: String?
  var coverImageView: String?
  var equipment: [String]?
  var instructions: [String]?
  var isStarred: Bool
}

/// Who hears the meal plans of seed 004.
protocol MealPlanStoreDelegate: AnyObject {
  func mealPlansRetrieved(mealPlans: [MealPlan])
}
