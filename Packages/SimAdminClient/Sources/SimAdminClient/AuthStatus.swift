import Foundation

/// `GET /api/auth/status`: whether a password is set and whether this client is let in.
public struct AuthStatus: Codable, Sendable, Hashable {
  /// Whether an admin password exists.
  public var configured: Bool
  /// Whether this request was authenticated (always true when protection is off).
  public var authenticated: Bool
  /// The security settings, when sent.
  public var settings: AuthSettings?

  enum CodingKeys: String, CodingKey {
    case configured, authenticated, settings
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    configured = c.lenientBool(.configured)
    authenticated = c.lenientBool(.authenticated)
    settings = c.lenientNested(.settings)
  }

  /// Whether the device demands a session (protection on).
  public var isProtected: Bool { settings?.passwordProtectionEnabled ?? !authenticated }
}

/// The security settings inside ``AuthStatus``.
public struct AuthSettings: Codable, Sendable, Hashable {
  /// Whether the API asks for a session.
  public var passwordProtectionEnabled: Bool
  /// Minimum password length.
  public var passwordMinLength: Int64?
  /// Whether passwords need letters.
  public var passwordRequireLetters: Bool
  /// Whether passwords need digits.
  public var passwordRequireDigits: Bool
  /// Whether passwords need symbols.
  public var passwordRequireSymbols: Bool
  /// Session lifetime in seconds (−1 means "forever").
  public var sessionTTLSeconds: Int64?
  /// Idle timeout of the web front end, in seconds.
  public var idleTimeoutSeconds: Int64?

  enum CodingKeys: String, CodingKey {
    case passwordProtectionEnabled = "password_protection_enabled"
    case passwordMinLength = "password_min_length"
    case passwordRequireLetters = "password_require_letters"
    case passwordRequireDigits = "password_require_digits"
    case passwordRequireSymbols = "password_require_symbols"
    case sessionTTLSeconds = "session_ttl_seconds"
    case idleTimeoutSeconds = "idle_timeout_seconds"
  }

  /// Decodes tolerantly.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    passwordProtectionEnabled = c.lenientBool(.passwordProtectionEnabled)
    passwordMinLength = c.lenientInt(.passwordMinLength)
    passwordRequireLetters = c.lenientBool(.passwordRequireLetters)
    passwordRequireDigits = c.lenientBool(.passwordRequireDigits)
    passwordRequireSymbols = c.lenientBool(.passwordRequireSymbols)
    sessionTTLSeconds = c.lenientInt(.sessionTTLSeconds)
    idleTimeoutSeconds = c.lenientInt(.idleTimeoutSeconds)
  }
}
