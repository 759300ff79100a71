import Essentials
import Foundation
import ViewKit

/// The summary status of one instance, as the workbench shows it.
public enum InstanceStatus: String, Sendable, Codable, CaseIterable, Hashable {
  /// Reachable, logged in (or unprotected), every layer working.
  case online
  /// Not reachable at all (see the reason: refused, DNS, timeout, TLS, reset…).
  case offline
  /// Reachable, but the device wants a password that is missing or wrong.
  case loginRequired
  /// Reachable and logged in, but a layer is broken (no modem, no SIM, not registered, no data).
  case degraded
  /// Never tested.
  case unknown

  /// The label in `language`.
  public func label(_ language: AppLanguage) -> String {
    FleetStrings.text("status.\(rawValue)", language)
  }

  /// The tone views use for it.
  public var tone: Tone {
    switch self {
    case .online: .success
    case .offline: .danger
    case .loginRequired, .degraded: .warning
    case .unknown: .muted
    }
  }
}

/// Why an instance is not online: a machine code with a plain-language text per language.
///
/// In JSON it is `{"code": "refused", "message": "connection refused"}`, the message in the
/// output's language; a bare code is read too.
public enum StatusReason: String, Sendable, Codable, CaseIterable, Hashable {
  /// Connection refused.
  case refused
  /// The host name does not resolve.
  case dns
  /// No answer within the timeout.
  case timeout
  /// The TLS handshake failed.
  case tls
  /// The connection was reset.
  case reset
  /// Unreachable for another network reason.
  case unreachable
  /// SimAdmin answered with an HTTP error status (e.g. 500).
  case serverError
  /// The answer was not SimAdmin's JSON (a captive portal, a redirect, another service).
  case notSimAdmin
  /// Protection is on and no password is stored.
  case noPassword
  /// Protection is on but the device has no admin password set: it must be set on the
  /// device's own web page (no password stored in msa can help).
  case passwordNotSet
  /// The stored password was refused.
  case wrongPassword
  /// The credentials file cannot be read.
  case credentialsUnavailable
  /// The device has no working modem.
  case noModem
  /// No SIM card is present.
  case noSIM
  /// The SIM is not registered on a network.
  case notRegistered
  /// Mobile data is off (a status before data off was Online's note; kept for old records).
  case noData
  /// Mobile data is switched off (`/api/data` `active: false`): shown beside Online, not as
  /// Degraded — many devices are SMS-only on purpose (PRODUCT §5).
  case dataOff
  /// The device reported an error of its own.
  case upstreamError
  /// The device answered something that is not what SimAdmin sends for a status layer (a
  /// truncated body, an `ok` without the promised data, an oversized answer).
  case protocolError
  /// The login the layer calls waited for did not answer within their budget (the detail
  /// holds the seconds).
  case authTimeout
  /// `/api/device` did not answer within its budget.
  case modemTimeout
  /// `/api/sim` did not answer within its budget.
  case simTimeout
  /// `/api/network` did not answer within its budget.
  case registrationTimeout
  /// `/api/data` did not answer within its budget.
  case dataTimeout

  enum CodingKeys: String, CodingKey {
    case code, message
  }

  /// Reads `{"code": …}` or a bare code.
  public init(from decoder: any Decoder) throws {
    let code: String
    if let single = try? decoder.singleValueContainer().decode(String.self) {
      code = single
    } else {
      code = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .code)
    }
    guard let reason = StatusReason(rawValue: code) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "unknown reason \(code)"))
    }
    self = reason
  }

  /// Writes `{"code": …, "message": …}`, the message in the output's language.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rawValue, forKey: .code)
    try container.encode(text(AppLanguage.of(encoder)), forKey: .message)
  }

  /// Whether the reason's text tells the seconds kept in the detail ("after 5 s").
  public var isLayerTimeout: Bool {
    switch self {
    case .authTimeout, .modemTimeout, .simTimeout, .registrationTimeout, .dataTimeout: true
    default: false
    }
  }

  /// The plain-language reason in `language`, from the shared reason catalogue
  /// (``EventText``) that the log center and JSON output read too; a reason only this
  /// package's catalogue knows is read from there. A layer timeout tells its seconds from
  /// `detail` ("modem not answering after 5 s").
  public func text(_ language: AppLanguage, detail: String? = nil) -> String {
    if isLayerTimeout {
      return FleetStrings.text("reason.\(rawValue)", language, ["seconds": detail ?? "?"])
    }
    return EventText.reasonIfKnown(rawValue, language)
      ?? FleetStrings.text("reason.\(rawValue)", language)
  }
}
