// Seed 000 (an article reader that pages through an ordered ID list): the data manager and
// the two view models as the seed wrote them against the Apple SDK. Only the SwiftUI view
// (ArticleDetailView) is left out; nothing else is changed.
import FirestoreClient
import Foundation

class ArticleDataManager: ObservableObject {
    @Published var orderedArticleIds: [String] = []
    @Published var articleCache: [String: Article] = [:]
    @Published var isLoading: Bool = false
    
    private let batchSize = 20
    private let db = Firestore.firestore()
    
    // 预加载符合筛选条件的所有文章ID
    func fetchOrderedArticleIds(filter: (field: String, value: Any)) async throws {
        let snapshot = try await db.collection("articles")
            .whereField(filter.field, isEqualTo: filter.value)
            .order(by: "publishedAt", descending: true)
            .getDocuments(source: .server)
        
        orderedArticleIds = snapshot.documents.map { $0.documentID }
    }
    
    // 加载指定范围的文章内容
    func fetchArticles(for range: Range<Int>) async throws {
        guard !orderedArticleIds.isEmpty else { return }
        let safeRange = range.clamped(to: 0..<orderedArticleIds.count)
        let idsToFetch = orderedArticleIds[safeRange]
        
        // 过滤已缓存ID，避免重复加载
        let uncachedIds = idsToFetch.filter { !articleCache.keys.contains($0) }
        guard !uncachedIds.isEmpty else { return }
        
        isLoading = true
        defer { isLoading = false }
        
        // 批量获取文档
        let dispatchGroup = DispatchGroup()
        for id in uncachedIds {
            dispatchGroup.enter()
            db.collection("articles").document(id).getDocument { snapshot, error in
                defer { dispatchGroup.leave() }
                if let error = error {
                    print("加载文章失败 \(id): \(error)")
                    return
                }
                guard let article = try? snapshot?.data(as: Article.self) else { return }
                DispatchQueue.main.async {
                    self.articleCache[id] = article
                }
            }
        }
        dispatchGroup.wait()
    }
    
    // 根据ID获取文章，自动触发缺失批次加载
    func getArticle(id: String) async throws -> Article? {
        if let cached = articleCache[id] {
            return cached
        }
        guard let index = orderedArticleIds.firstIndex(of: id) else { return nil }
        let batchStart = (index / batchSize) * batchSize
        try await fetchArticles(for: batchStart..<batchStart+batchSize)
        return articleCache[id]
    }
}

class ArticleListViewModel: ObservableObject {
    @Published var currentLoadedRange: Range<Int> = 0..<0
    private let dataManager: ArticleDataManager
    private let batchSize = 20
    
    init(dataManager: ArticleDataManager) {
        self.dataManager = dataManager
    }
    
    // 初始化加载第一批次
    func initialLoad(filter: (field: String, value: Any)) async throws {
        try await dataManager.fetchOrderedArticleIds(filter: filter)
        try await loadNextBatch()
    }
    
    // 加载下一批次
    func loadNextBatch() async throws {
        let nextStart = currentLoadedRange.upperBound
        let nextEnd = nextStart + batchSize
        try await dataManager.fetchArticles(for: nextStart..<nextEnd)
        currentLoadedRange = 0..<nextEnd
    }
    
    // 获取当前已加载的文章列表
    var loadedArticles: [Article] {
        dataManager.orderedArticleIds[currentLoadedRange]
            .compactMap { dataManager.articleCache[$0] }
    }
}

class ArticleDetailViewModel: ObservableObject {
    @Published var currentArticle: Article?
    @Published var currentIndex: Int = 0
    let dataManager: ArticleDataManager
    
    init(dataManager: ArticleDataManager, initialArticleId: String) {
        self.dataManager = dataManager
        if let index = dataManager.orderedArticleIds.firstIndex(of: initialArticleId) {
            currentIndex = index
        }
        Task { await loadCurrentArticle() }
    }
    
    private func loadCurrentArticle() async {
        guard currentIndex < dataManager.orderedArticleIds.count else { return }
        let articleId = dataManager.orderedArticleIds[currentIndex]
        currentArticle = try? await dataManager.getArticle(id: articleId)
    }
    
    // 切换上一篇
    func previousArticle() async {
        guard currentIndex > 0 else { return }
        currentIndex -= 1
        await loadCurrentArticle()
    }
    
    // 切换下一篇
    func nextArticle() async {
        guard currentIndex < dataManager.orderedArticleIds.count - 1 else { return }
        currentIndex += 1
        await loadCurrentArticle()
    }
}
