/// A token provider of this library whose every wait is bounded: it answers at once, or its
/// requests go through ``TokenEndpointClient``, which keeps ``Deadline/current``. A call
/// then fetches its token without a timer of its own; any other provider is raced against
/// the call's deadline.
protocol DeadlineKeepingTokenProvider: TokenProvider {}

extension StaticTokenProvider: DeadlineKeepingTokenProvider {}
extension EmulatorTokenProvider: DeadlineKeepingTokenProvider {}
extension ServiceAccountTokenProvider: DeadlineKeepingTokenProvider {}
extension AuthorizedUserTokenProvider: DeadlineKeepingTokenProvider {}
extension MetadataServerTokenProvider: DeadlineKeepingTokenProvider {}
extension FirebaseAuthTokenProvider: DeadlineKeepingTokenProvider {}
