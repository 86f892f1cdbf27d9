// Runs the seeds' Firestore code (Seeds/) against the backend the environment names and
// checks what it shows, as the seeds' apps would show it.
import FirestoreClient
import Foundation

/// Collects what seed 004's store hands its delegate.
final class MealPlanRecorder: MealPlanStoreDelegate {
  var lists: [[MealPlan]] = []
  func mealPlansRetrieved(mealPlans: [MealPlan]) { lists.append(mealPlans) }
}

/// The lists seed 004 handed its delegate, starred plans marked `*`.
func describe(_ lists: [[MealPlan]]) -> String {
  lists.map { "[" + $0.map { $0.docID + ($0.isStarred ? "*" : "") }.joined(separator: " ") + "]" }.joined(separator: ", ")
}

@MainActor
func runSeeds() async throws {
  let db = Firestore.firestore()
  print("project \(db.projectID)")

  // Seed 000: an ordered ID list, a batch of articles, next/previous in the detail view.
  let articles = db.collection("articles")
  for i in 0..<25 {
    let article = Article(
      title: "Article \(i)", content: "Text \(i)", category: i % 5 == 0 ? "other" : "swift",
      publishedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 60))
    try articles.document("a\(i)").setData(from: article)
  }
  try await db.waitForPendingWrites()
  let manager = ArticleDataManager()
  let list = ArticleListViewModel(dataManager: manager)
  try await list.initialLoad(filter: (field: "category", value: "swift"))
  await waitUntil("the first batch in the cache") { list.loadedArticles.count == 20 }
  check(manager.orderedArticleIds.count == 20, "seed000: \(manager.orderedArticleIds.count) IDs")
  check(manager.orderedArticleIds.first == "a24", "seed000: newest first, got \(manager.orderedArticleIds.first ?? "none")")
  print("seed000 ids=\(manager.orderedArticleIds.count) first=\(list.loadedArticles.first?.title ?? "none")")
  let detail = ArticleDetailViewModel(dataManager: manager, initialArticleId: "a23")
  await waitUntil("the detail view's article") { detail.currentArticle != nil }
  await detail.nextArticle()
  await waitUntil("the next article") { detail.currentArticle?.title == "Article 22" }
  print("seed000 detail=\(detail.currentArticle?.title ?? "none") index=\(detail.currentIndex)")

  // Seed 001: cache first, then the server; no "Name Unavailable" once loaded.
  let uid = ProcessInfo.processInfo.environment["APPLE_PORT_UID"] ?? "port-user"
  try await db.collection("users").document(uid).setData(["uid": uid, "name": "Ada", "gender": "f"])
  try await db.collection("users").document(uid).collection("privateUserInfo").document("private").setData(["email": "ada@example.com"])
  let dashboard = DashboardLogic()
  await waitUntil("the profile") { !dashboard.isLoadingUserData }
  await waitUntil("the private info") { dashboard.privateUserModel != nil }
  check(!dashboard.loadUserFailed, "seed001: loadUserFailed")
  check(dashboard.userModel?.name == "Ada", "seed001: name \(dashboard.userModel?.name ?? "nil")")
  print("seed001 name=\(dashboard.userModel?.name ?? "nil") email=\(dashboard.privateUserModel?.email ?? "nil")")
  // A second screen: the cache answers first now.
  let again = DashboardLogic()
  await waitUntil("the second profile") { !again.isLoadingUserData }
  check(again.userModel?.name == "Ada", "seed001: second name \(again.userModel?.name ?? "nil")")

  // Seed 004: favorites per user, starred state from a second listener.
  try await db.collection("mealPlans").document("m1").setData(["title": "Soup", "equipment": ["pot"]])
  try await db.collection("mealPlans").document("m2").setData(["title": "Salad", "instructions": ["mix"]])
  let store = MealPlanStore()
  let recorder = MealPlanRecorder()
  store.delegate = recorder
  store.getMealPlans()
  await waitUntil("the meal plans") { recorder.lists.last?.count == 2 }
  check(recorder.lists.last?.contains { $0.isStarred } == false, "seed004: starred before starring")
  store.updateStarredStatus("m1", true)
  await waitUntil("m1 starred") { recorder.lists.last?.first { $0.docID == "m1" }?.isStarred == true }
  store.getMealPlans(true)
  await waitUntil("only starred plans: \(describe(recorder.lists))") { recorder.lists.last?.map(\.docID) == ["m1"] }
  store.updateStarredStatus("m1", false)
  await waitUntil("no starred plans: \(describe(recorder.lists))") { recorder.lists.last?.isEmpty == true }
  store.listener?.remove()
  print("seed004 lists=\(recorder.lists.count) equipment=\(recorder.lists.first?.first?.equipment ?? [])")
}
