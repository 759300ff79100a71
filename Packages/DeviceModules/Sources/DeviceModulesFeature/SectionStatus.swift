import Essentials
import SimAdminClient
import ViewKit

/// The state every section is in, rendered the same way for all of them.
///
/// Mapping from the client's errors: 401 → ``loginRequired``, 403 → ``noPermission``
/// (e.g. eSIM routes while the device is in SIM mode), plain-text 404 / 405 →
/// ``notSupported``, no answer in time → ``timeout``, `{"status":"error"}` → ``upstream(message:)``
/// with the device's own text (never translated), anything else → ``failed(_:)``.
public enum SectionStatus: Sendable, Hashable {
  /// Being fetched.
  case loading
  /// Fetched, with something to show.
  case loaded
  /// Fetched, with nothing to show (no messages, no stats sample yet…).
  case empty
  /// The device wants a session and none could be had.
  case loginRequired
  /// The device asks for a login but has no admin password set (one must be set on its own
  /// web page; storing a password in msa cannot help).
  case passwordNotSet
  /// HTTP 403.
  case noPermission
  /// This SimAdmin does not have the endpoint.
  case notSupported
  /// No answer within the connector's timeout.
  case timeout
  /// The device answered with an error envelope; its message as sent.
  case upstream(message: String)
  /// Any other failure (unreachable, malformed answer…).
  case failed(SimAdminError)

  /// The status a client error stands for.
  public init(_ error: SimAdminError) {
    switch error {
    case .loginRequired, .wrongPassword: self = .loginRequired
    case .passwordNotSet: self = .passwordNotSet
    case .noPermission: self = .noPermission
    case .notSupported: self = .notSupported
    case .timeout: self = .timeout
    case .upstream(let message): self = .upstream(message: message)
    default: self = .failed(error)
    }
  }

  /// A stable machine name for `--json`: `loading`, `ok`, `empty`, `loginRequired`,
  /// `passwordNotSet`, `noPermission`, `notSupported`, `timeout`, `upstreamError`, `failed`.
  public var code: String {
    switch self {
    case .loading: "loading"
    case .loaded: "ok"
    case .empty: "empty"
    case .loginRequired: "loginRequired"
    case .passwordNotSet: "passwordNotSet"
    case .noPermission: "noPermission"
    case .notSupported: "notSupported"
    case .timeout: "timeout"
    case .upstream: "upstreamError"
    case .failed: "failed"
    }
  }

  /// Whether the section could not be fetched (the command then exits with 1).
  public var isFailure: Bool {
    switch self {
    case .loading, .loaded, .empty: false
    default: true
    }
  }

  /// The short label in `language` (a status column, a badge).
  public func label(_ language: AppLanguage) -> String {
    DeviceModulesStrings.text("status.\(code)", language)
  }

  /// The longer explanation in `language`; the device's own message as is.
  public func message(_ language: AppLanguage) -> String? {
    switch self {
    case .loading, .loaded: nil
    case .upstream(let message): message
    case .failed(let error): error.localizedMessage(language)
    default: DeviceModulesStrings.text("status.\(code).message", language)
    }
  }

  /// The tone the status is drawn in.
  public var tone: Tone {
    switch self {
    case .loaded: .success
    case .loading, .empty, .notSupported: .muted
    case .loginRequired, .passwordNotSet, .noPermission: .warning
    case .timeout, .upstream, .failed: .danger
    }
  }
}
