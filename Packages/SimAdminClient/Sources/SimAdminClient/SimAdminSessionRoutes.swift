import Foundation

/// One typed method per route, all going through ``SimAdminSession/send(_:as:)``.
extension SimAdminSession {
  /// `GET /api/health`.
  public func health() async throws(SimAdminFailure) -> HealthInfo {
    try await send(.health)
  }

  /// `GET /api/auth/status`.
  public func authStatus() async throws(SimAdminFailure) -> AuthStatus {
    try await send(.authStatus)
  }

  /// `GET /api/device`.
  public func device() async throws(SimAdminFailure) -> DeviceInfo {
    try await send(.device)
  }

  /// `GET /api/sim`.
  public func sim() async throws(SimAdminFailure) -> SimInfo {
    try await send(.sim)
  }

  /// `GET /api/sim`, only what a connection test keeps (``SimInfo/Glance``).
  public func simGlance() async throws(SimAdminFailure) -> SimInfo.Glance {
    try await send(.sim)
  }

  /// `GET /api/network`.
  public func network() async throws(SimAdminFailure) -> NetworkInfo {
    try await send(.network)
  }

  /// `GET /api/cells`.
  public func cells() async throws(SimAdminFailure) -> CellsInfo {
    try await send(.cells)
  }

  /// `GET /api/stats`.
  public func stats() async throws(SimAdminFailure) -> SystemStats {
    try await send(.stats)
  }

  /// `GET /api/stats`, only what a connection test keeps (``SystemStats/Glance``).
  public func statsGlance() async throws(SimAdminFailure) -> SystemStats.Glance {
    try await send(.stats)
  }

  /// `GET /api/stats/cpu`.
  public func cpu() async throws(SimAdminFailure) -> CPUInfo {
    try await send(.cpu)
  }

  /// `GET /api/connectivity`.
  public func connectivity() async throws(SimAdminFailure) -> ConnectivityInfo {
    try await send(.connectivity)
  }

  /// `GET /api/data`.
  public func dataState() async throws(SimAdminFailure) -> DataState {
    try await send(.data)
  }

  /// `GET /api/roaming`.
  public func roaming() async throws(SimAdminFailure) -> RoamingState {
    try await send(.roaming)
  }

  /// `GET /api/airplane-mode`.
  public func airplaneMode() async throws(SimAdminFailure) -> AirplaneMode {
    try await send(.airplaneMode)
  }

  /// `GET /api/hub`; `.notSupported` before SimAdmin 1.1.9.
  public func hub() async throws(SimAdminFailure) -> HubState {
    try await send(.hub)
  }

  /// `POST /api/hub/unbind`; `.notSupported` before SimAdmin 1.1.9.
  public func hubUnbind() async throws(SimAdminFailure) -> HubState {
    try await send(.hubUnbind)
  }

  /// `POST /api/hub` with `config` as it is, except `enabled: false`: standalone mode, the
  /// rest of the saved configuration kept (SimAdmin replaces the whole config, so every field
  /// is sent as read).
  public func hubMakeStandalone(keeping config: HubState.Config) async throws(SimAdminFailure)
    -> HubState
  {
    try await send(
      .hubSave(
        enabled: false, url: config.url,
        localFallbackTimeoutSeconds: config.localFallbackTimeoutSeconds,
        localFallbackEnabled: config.localFallbackEnabled))
  }

  /// `GET /api/sms/list`: one page, newest first (a short page is the last one).
  public func smsList(limit: Int = 50, offset: Int = 0, direction: SmsDirection? = nil)
    async throws(SimAdminFailure) -> [SmsMessage]
  {
    let list: SmsMessageList = try await send(
      .smsList(limit: limit, offset: offset, direction: direction))
    return list.messages
  }

  /// `GET /api/sms/list`: one page, newest first, with the count of entries it skipped as
  /// unreadable (a page is the last one when `messages.count + unreadable < limit`).
  public func smsPage(limit: Int, offset: Int) async throws(SimAdminFailure) -> SmsMessageList {
    try await send(.smsList(limit: limit, offset: offset))
  }

  /// `GET /api/sms/conversation`: messages with exactly `phoneNumber`, newest first.
  public func smsConversation(phoneNumber: String, limit: Int = 50)
    async throws(SimAdminFailure) -> [SmsMessage]
  {
    let list: SmsMessageList = try await send(
      .smsConversation(phoneNumber: phoneNumber, limit: limit))
    return list.messages
  }

  /// `GET /api/sms/stats`.
  public func smsStats() async throws(SimAdminFailure) -> SmsStats {
    try await send(.smsStats)
  }

  /// `POST /api/sms/send`. SimAdmin answers when the modem has sent the message, however long
  /// that takes (one send at a time), so `timeout` may be longer than other requests'; a
  /// client that gives up leaves the outcome unknown (and hyper cancels the device's handler:
  /// the SMS may go out without a row on the device).
  public func smsSend(phoneNumber: String, content: String, timeout: TimeInterval? = nil)
    async throws(SimAdminFailure) -> SendResult
  {
    try await send(.smsSend(phoneNumber: phoneNumber, content: content), timeout: timeout)
  }

  /// `DELETE /api/sms/message/{id}`.
  public func smsDeleteMessage(id: Int64) async throws(SimAdminFailure) -> DeleteResult {
    try await send(.smsDeleteMessage(id: id))
  }

  /// `DELETE /api/sms/conversation/{phone_number}`.
  public func smsDeleteConversation(phoneNumber: String) async throws(SimAdminFailure)
    -> DeleteResult
  {
    try await send(.smsDeleteConversation(phoneNumber: phoneNumber))
  }

  /// `POST /api/sms/batch-delete`.
  public func smsBatchDelete(ids: [Int64] = [], phoneNumbers: [String] = [])
    async throws(SimAdminFailure) -> DeleteResult
  {
    try await send(.smsBatchDelete(ids: ids, phoneNumbers: phoneNumbers))
  }

  /// `POST /api/sms/clear`.
  public func smsClear() async throws(SimAdminFailure) -> DeleteResult {
    try await send(.smsClear)
  }
}
