// Seed 004 (per-user favorites in a subcollection under security rules): the two methods as
// the seed wrote them against the Apple SDK, in a class that holds what they use (`listener`,
// `delegate`). Nothing in them is changed.
import FirestoreClient
import Foundation

class MealPlanStore {
    var listener: ListenerRegistration?
    weak var delegate: MealPlanStoreDelegate?

func updateStarredStatus(_ mealPlanDocID: String, _ isStarred: Bool) {
    // 获取当前登录用户的唯一ID（Firebase Auth提供）
    guard let currentUserID = Auth.auth().currentUser?.uid else { return }
    let db = Firestore.firestore()
    // 定位到当前用户收藏列表下，对应餐计划的文档
    let favoriteDocRef = db
        .collection("users")
        .document(currentUserID)
        .collection("favorites")
        .document(mealPlanDocID)
    
    if isStarred {
        // 标星：创建收藏文档，存储收藏时间等元数据
        favoriteDocRef.setData([
            "starredAt": Timestamp(date: Date())
        ])
    } else {
        // 取消标星：删除对应收藏文档
        favoriteDocRef.delete()
    }
}

func getMealPlans(_ starredOnly: Bool = false) {
    // 移除旧的数据库监听
    listener?.remove()
    guard let currentUserID = Auth.auth().currentUser?.uid else {
        self.delegate?.mealPlansRetrieved(mealPlans: [])
        return
    }
    let db = Firestore.firestore()
    
    // 临时缓存两个数据源的快照
    var mealPlanDocs: [QueryDocumentSnapshot]?
    var userFavoriteIDSet: Set<String> = []
    
    // 组装餐计划列表的通用逻辑
    func assembleMealPlanList() {
        guard let docs = mealPlanDocs else { return }
        var mealPlans = [MealPlan]()
        
        for doc in docs {
            let mealPlanID = doc.documentID
            // 星标筛选模式下，跳过用户未收藏的餐计划
            if starredOnly && !userFavoriteIDSet.contains(mealPlanID) {
                continue
            }
            // 解析餐计划，星标状态从用户收藏集合同步
            let mealPlan = MealPlan(
                docID: mealPlanID,
                title: doc["title"] as! String,
                recipeSource: doc["recipeSource"] as? String,
                estimatedTime: doc["estimatedTime"] as? String,
                coverImageView: doc["coverImageView"] as? String,
                equipment: doc["equipment"] as? [String],
                instructions: doc["instructions"] as? [String],
                isStarred: userFavoriteIDSet.contains(mealPlanID)
            )
            mealPlans.append(mealPlan)
        }
        
        DispatchQueue.main.async {
            self.delegate?.mealPlansRetrieved(mealPlans: mealPlans)
        }
    }
    
    // 监听当前用户的收藏子集合，实时同步星标列表
    db.collection("users")
        .document(currentUserID)
        .collection("favorites")
        .addSnapshotListener { [weak self] snapshot, error in
            guard let snapshot = snapshot else { return }
            // 把所有收藏的餐计划ID存为集合，做快速匹配
            userFavoriteIDSet = Set(snapshot.documents.map { $0.documentID })
            // 如果已经拿到了全量餐计划数据，就重新组装列表
            if mealPlanDocs != nil {
                assembleMealPlanList()
            }
        }
    
    // 监听公共餐计划集合
    listener = db.collection("mealPlans")
        .addSnapshotListener { snapshot, error in
            guard let snapshot = snapshot, error == nil else { return }
            mealPlanDocs = snapshot.documents
            // 如果已经拿到了用户的收藏列表，就重新组装列表
            assembleMealPlanList()
        }
}
}
