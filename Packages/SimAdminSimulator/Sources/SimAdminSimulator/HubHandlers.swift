import Foundation

/// SimAdmin's `/api/hub*` handlers (`backend/src/hub_agent.rs`, `backend/src/config.rs`,
/// SIMADMIN-API §5).
enum HubHandlers {
  static let addressOnly = "Hub 地址只能包含 http(s)、主机名和可选端口"

  static func handle(_ template: String, request: RecordedRequest, state: inout DeviceState)
    -> HTTPResponse
  {
    switch (request.method, template) {
    case ("GET", "/api/hub"):
      return .ok(DeviceDocuments.hub(state))
    case ("POST", "/api/hub"):
      // `save_hub_settings`: the body is a whole HubConfig, every field defaulted by serde
      // (enabled false, url "", 120 s, fallback on), which replaces the saved one; a managed
      // config's URL must be an http(s) origin. Restarting the agent with a new config resets
      // its runtime (no agent id); the same config again changes nothing.
      return DeviceRouter.withBody(request, field: nil) { body in
        let enabled = body["enabled"] as? Bool ?? false
        let url = body["url"] as? String ?? ""
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        if enabled, !trimmed.isEmpty, let problem = urlProblem(trimmed, invalidPrefix: "Hub URL 无效")
        {
          return .error(problem, status: 400)
        }
        var next = state.hub
        next.enabled = enabled
        next.url = url
        next.localFallbackTimeoutSeconds =
          (body["local_fallback_timeout_seconds"] as? NSNumber)?.intValue ?? 120
        next.localFallbackEnabled = body["local_fallback_enabled"] as? Bool ?? true
        if next.lifecycleKey != state.hub.lifecycleKey {
          next.agentID = nil
          next.deviceIDs = []
        }
        state.hub = next
        return .ok(DeviceDocuments.hub(state), message: "Hub settings saved")
      }
    case ("POST", "/api/hub/unbind"):
      // Keeps (or turns on) centrally managed mode with no URL: the device waits for a Hub
      // again, advertises itself over mDNS, and provision accepts anyone. The Hub is not told.
      state.hub.unbind()
      return .ok(DeviceDocuments.hub(state), message: "已解除 Hub 绑定")
    case ("POST", "/api/hub/provision"):
      // Public. The body must carry all four fields (serde: 422 otherwise), then
      // `validate_provision_request` in this order.
      for field in ["hub_url", "hub_instance_id", "hub_version", "enrollment_token"] {
        if let rejection = missingField(request, field) { return rejection }
      }
      return DeviceRouter.withBody(request, field: nil) { body in
        guard state.hub.enabled else { return .error("设备当前处于独立运行模式", status: 400) }
        guard !state.hub.isBound else { return .error("设备已经绑定 SimAdminHub", status: 409) }
        let instance = body["hub_instance_id"] as? String ?? ""
        let token = body["enrollment_token"] as? String ?? ""
        guard !instance.trimmingCharacters(in: .whitespaces).isEmpty, token.utf8.count >= 32 else {
          return .error("Hub 接入凭据无效", status: 400)
        }
        let url = (body["hub_url"] as? String ?? "").trimmingCharacters(in: .whitespaces)
        if let problem = urlProblem(url, invalidPrefix: "Hub 地址无效") {
          return .error(problem, status: 400)
        }
        state.hub.enabled = true
        state.hub.url = normalized(url)
        state.hub.agentID = nil
        state.hub.deviceIDs = []
        return .ok(DeviceDocuments.hub(state), message: "Hub 接入请求已接受")
      }
    default:
      return HTTPResponse(status: 405)
    }
  }

  /// Axum's 422 for a missing field of the JSON body (after its 415 and 400 checks).
  static func missingField(_ request: RecordedRequest, _ field: String) -> HTTPResponse? {
    let answer = DeviceRouter.withBody(request, field: field) { _ in HTTPResponse(status: 200) }
    return answer.status == 200 ? nil : answer
  }

  /// Why `text` is not a Hub address SimAdmin accepts (`reqwest::Url::parse`, then http(s)
  /// with a host and nothing but an optional port), or nil.
  static func urlProblem(_ text: String, invalidPrefix: String) -> String? {
    guard let components = URLComponents(string: text), let scheme = components.scheme else {
      return "\(invalidPrefix): relative URL without a base"
    }
    guard ["http", "https"].contains(scheme.lowercased()), let host = components.host,
      !host.isEmpty, components.user == nil, components.password == nil,
      components.query == nil, components.fragment == nil,
      components.path.isEmpty || components.path == "/"
    else { return addressOnly }
    return nil
  }

  /// The address without a trailing slash (`normalized_hub_url`).
  static func normalized(_ text: String) -> String {
    var url = text
    while url.hasSuffix("/") { url.removeLast() }
    return url
  }
}
