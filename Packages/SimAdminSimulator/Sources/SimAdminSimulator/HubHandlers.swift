/// SimAdmin's `/api/hub*` handlers (`backend/src/hub_agent.rs`, SIMADMIN-API §5).
enum HubHandlers {
  static func handle(_ template: String, request: RecordedRequest, state: inout DeviceState)
    -> HTTPResponse
  {
    switch (request.method, template) {
    case ("GET", "/api/hub"):
      return .ok(DeviceDocuments.hub(state))
    case ("POST", "/api/hub"):
      // Saves a HubConfig and restarts the agent; `enabled:false` returns to standalone.
      return DeviceRouter.withBody(request, field: "enabled") { body in
        state.hub.enabled = body["enabled"] as? Bool ?? state.hub.enabled
        if let url = body["url"] as? String { state.hub.url = url }
        if !state.hub.enabled || state.hub.url.isEmpty {
          state.hub.agentID = nil
          state.hub.deviceIDs = []
        }
        return .ok(DeviceDocuments.hub(state), message: "Hub 配置已保存")
      }
    case ("POST", "/api/hub/unbind"):
      // Keeps (or turns on) centrally managed mode: a standalone device is changed by it.
      state.hub.unbind()
      return .ok(DeviceDocuments.hub(state), message: "已解除 Hub 绑定")
    case ("POST", "/api/hub/provision"):
      guard state.hub.enabled else {
        return .error("设备处于独立模式，无法接入 Hub", status: 400)
      }
      guard !state.hub.isBound else { return .error("设备已绑定 Hub", status: 409) }
      return DeviceRouter.withBody(request, field: "hub_url") { body in
        let url = body["hub_url"] as? String ?? ""
        let token = body["enrollment_token"] as? String ?? ""
        guard !url.isEmpty, token.count >= 32 else {
          return .error("无效的 Hub 接入请求", status: 400)
        }
        state.hub.url = url
        return .ok(DeviceDocuments.hub(state), message: "已接入 Hub")
      }
    default:
      return HTTPResponse(status: 405)
    }
  }
}
