import Foundation

/// `GET /api/hub` (and the answer of `POST /api/hub/unbind`): Hub binding config and runtime.
public struct HubState: Codable, Sendable, Hashable {
  /// The saved configuration.
  public var config: Config
  /// The agent's live state.
  public var runtime: Runtime

  enum CodingKeys: String, CodingKey {
    case config, runtime
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let empty = Data("{}".utf8)
    config = try c.lenientNested(.config) ?? JSONDecoder().decode(Config.self, from: empty)
    runtime = try c.lenientNested(.runtime) ?? JSONDecoder().decode(Runtime.self, from: empty)
  }

  /// Bound means centrally managed **and** attached (SIMADMIN-API §5): `config.enabled` and
  /// (a Hub URL or an agent id). A standalone device that still carries an old URL is not.
  public var isBound: Bool {
    config.enabled && (!config.url.isEmpty || !(runtime.agentID ?? "").isEmpty)
  }

  // MARK: - Parts

  /// `HubConfig`.
  public struct Config: Codable, Sendable, Hashable {
    /// Centrally managed mode (false = standalone).
    public var enabled: Bool
    /// The Hub's URL; `""` when not bound.
    public var url: String
    /// Seconds before local fallback.
    public var localFallbackTimeoutSeconds: Int64
    /// Whether local fallback is on.
    public var localFallbackEnabled: Bool

    enum CodingKeys: String, CodingKey {
      case enabled, url
      case localFallbackTimeoutSeconds = "local_fallback_timeout_seconds"
      case localFallbackEnabled = "local_fallback_enabled"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      enabled = c.lenientBool(.enabled)
      url = c.lenientString(.url)
      localFallbackTimeoutSeconds = c.lenientInt(.localFallbackTimeoutSeconds) ?? 120
      localFallbackEnabled = c.lenientBool(.localFallbackEnabled, true)
    }
  }

  /// The agent's runtime state.
  public struct Runtime: Codable, Sendable, Hashable {
    /// Agent enabled.
    public var enabled: Bool
    /// Connected to a Hub now.
    public var online: Bool
    /// `disabled`, `waiting_for_hub`, `registering`, `connecting`, `connected`, `offline`
    /// or `awaiting_approval`.
    public var connectionState: String
    /// The Hub's URL, when known.
    public var hubURL: String?
    /// The Hub's instance id.
    public var hubInstanceID: String?
    /// The Hub's version.
    public var hubVersion: String?
    /// Last connection time (the device's text).
    public var lastConnectedAt: String?
    /// The agent id the Hub assigned.
    public var agentID: String?
    /// Device ids on the Hub.
    public var deviceIDs: [String]
    /// Local fallback state.
    public var localFallbackState: String
    /// The last error text.
    public var lastError: String?

    enum CodingKeys: String, CodingKey {
      case enabled, online
      case connectionState = "connection_state"
      case hubURL = "hub_url"
      case hubInstanceID = "hub_instance_id"
      case hubVersion = "hub_version"
      case lastConnectedAt = "last_connected_at"
      case agentID = "agent_id"
      case deviceIDs = "device_ids"
      case localFallbackState = "local_fallback_state"
      case lastError = "last_error"
    }

    /// Decodes tolerantly.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      enabled = c.lenientBool(.enabled)
      online = c.lenientBool(.online)
      connectionState = c.lenientString(.connectionState, "disabled")
      hubURL = c.lenientOptionalString(.hubURL)
      hubInstanceID = c.lenientOptionalString(.hubInstanceID)
      hubVersion = c.lenientOptionalString(.hubVersion)
      lastConnectedAt = c.lenientOptionalString(.lastConnectedAt)
      agentID = c.lenientOptionalString(.agentID)
      deviceIDs = c.lenientArray(.deviceIDs)
      localFallbackState = c.lenientString(.localFallbackState)
      lastError = c.lenientOptionalString(.lastError)
    }
  }
}
