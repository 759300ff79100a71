/// How a simulated device stands towards a SimAdminHub (SIMADMIN-API §5).
public enum HubBinding: Sendable, Hashable {
  /// Standalone mode (`config.enabled` false). `leftoverURL` is an old Hub URL the web page
  /// keeps after switching back to standalone; it does not make the device bound.
  case standalone(leftoverURL: String = "")
  /// Centrally managed mode with no Hub yet: waiting for one, advertising over mDNS.
  case waiting
  /// Centrally managed and attached to the Hub at `url`.
  case bound(url: String)
}

/// The Hub part of a device's state: `HubConfig` plus the agent's identity.
struct HubState: Sendable, Hashable {
  var enabled: Bool
  var url: String
  var agentID: String?
  var deviceIDs: [String]
  var localFallbackTimeoutSeconds: Int = 120
  var localFallbackEnabled = true

  init(_ binding: HubBinding, agentID: String, deviceID: String) {
    switch binding {
    case .standalone(let leftoverURL):
      enabled = false
      url = leftoverURL
      self.agentID = nil
      deviceIDs = []
    case .waiting:
      enabled = true
      url = ""
      self.agentID = nil
      deviceIDs = []
    case .bound(let url):
      enabled = true
      self.url = url
      self.agentID = agentID
      deviceIDs = [deviceID]
    }
  }

  /// Bound means centrally managed and attached (SIMADMIN-API §5).
  var isBound: Bool { enabled && (!url.isEmpty || agentID != nil) }

  /// What decides whether a saved config restarts the agent (`lifecycle_key`).
  var lifecycleKey: String {
    "\(enabled):\(url.trimmingCharacters(in: .whitespaces)):\(localFallbackEnabled):"
      + "\(localFallbackTimeoutSeconds)"
  }

  /// The binding as a value.
  var binding: HubBinding {
    guard enabled else { return .standalone(leftoverURL: url) }
    return isBound ? .bound(url: url) : .waiting
  }

  /// `runtime.local_fallback_state`: inactive when standalone, else armed (or disabled).
  var localFallbackState: String {
    guard enabled else { return "inactive" }
    return localFallbackEnabled ? "armed" : "disabled"
  }

  /// `runtime.connection_state`.
  var connectionState: String {
    guard enabled else { return "disabled" }
    return isBound ? "connected" : "waiting_for_hub"
  }

  /// What `POST /api/hub/unbind` does: clears the URL, the agent id and the device ids but
  /// keeps (or turns on) centrally managed mode, so the device waits for a Hub again.
  mutating func unbind() {
    enabled = true
    url = ""
    agentID = nil
    deviceIDs = []
  }
}
