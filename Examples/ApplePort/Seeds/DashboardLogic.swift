// Seed 001 (a profile screen that must not flash "Name Unavailable"): the view model and
// the models as the seed wrote them against the Apple SDK. Only the SwiftUI view
// (UserDashController) is left out; nothing else is changed.
import FirestoreClient
import Foundation

class DashboardLogic: ObservableObject {
    @Published var userModel: UserModel?
    @Published var privateUserModel: PrivateUserModel?
    // 标记数据是否在加载中
    @Published var isLoadingUserData = true
    // 标记数据是否加载失败
    @Published var loadUserFailed = false
    
    init(){
        fetchCurrentUser()
    }

    private func fetchCurrentUser () {
        // 拉取前重置状态
        isLoadingUserData = true
        loadUserFailed = false
        
        guard let uid = FirebaseManager.shared.auth.currentUser?.uid else {
            isLoadingUserData = false
            loadUserFailed = true
            return
        }
        guard FirebaseManager.shared.auth.currentUser?.email != nil else {
            print("could not locate email")
            isLoadingUserData = false
            loadUserFailed = true
            return
        }
        
        // 先拉取本地缓存，无网络也能立刻返回数据
        FirebaseManager.shared.firestore
            .collection("users").document(uid)
            .getDocument(source: .cache) { [weak self] snapshot, _ in
                guard let self = self else { return }
                if let data = snapshot?.data() {
                    self.userModel = .init(data: data)
                }
                
                // 缓存拉完静默拉取服务端最新数据
                FirebaseManager.shared.firestore
                    .collection("users").document(uid)
                    .getDocument(source: .server) { [weak self] snapshot, error in
                        guard let self = self else { return }
                        // 无论成功失败，网络请求结束就关闭loading
                        defer { self.isLoadingUserData = false }
                        
                        if let error = error {
                            print("failed to fetch user \(error)")
                            // 缓存也没拿到数据才标记失败
                            self.loadUserFailed = self.userModel == nil
                            return
                        }
                    
                        guard let data = snapshot?.data() else {
                            print("no data found for user")
                            self.loadUserFailed = self.userModel == nil
                            return
                        }
                        self.userModel = .init(data: data)
                    }
            }

        // 私有用户信息同理，优先读缓存
        FirebaseManager.shared.firestore
            .collection("users").document(uid)
            .collection("privateUserInfo")
            .document("private")
            .getDocument(source: .cache) { [weak self] snapshot, _ in
                guard let self = self else { return }
                if let data = snapshot?.data() {
                    self.privateUserModel = .init(data: data)
                }
                
                FirebaseManager.shared.firestore
                    .collection("users").document(uid)
                    .collection("privateUserInfo")
                    .document("private")
                    .getDocument(source: .server) { [weak self] snapshot, error in
                        guard let self = self else { return }
                        if let error = error {
                            print("fetch private user info failed \(error)")
                            return
                        }
                        guard let userEmail = snapshot?.data() else {
                            print("no email found for user")
                            return
                        }
                        self.privateUserModel = .init(data:userEmail)
                    }
            }
    }
}

struct UserModel {
    var uid, name, gender, height, weight, agenda, profilePictureURL: String
    
    init(data: [String: Any]){
        self.uid = data["uid"] as? String ?? "Unavailable"
        self.name = data["name"] as? String ?? "Unavailable"
        self.gender = data["gender"] as? String ?? "Unavailable"
        self.height = data["height"] as? String ?? "Unavailable"
        self.weight = data["weight"] as? String ?? "Unavailable"
        self.agenda = data["agenda"] as? String ?? "Unavailable"
        self.profilePictureURL = data ["profilePicture"] as? String ?? "Unavailable"
    }
}

// 结构体名统一用大驼峰
struct PrivateUserModel {
    var email: String
    
    init(data: [String: Any]){
        self.email = data["email"] as? String ?? "Unavailable"
    }
}
