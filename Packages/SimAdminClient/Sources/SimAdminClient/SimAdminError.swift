import Essentials
import Foundation
import HTTPKit

/// Why a device could not be reached at all: HTTPKit's reasons, with their catalogue keys.
extension UnreachableReason {
  /// The catalogue key of the plain-language reason.
  public var reasonKey: String {
    switch self {
    case .refused: "unreachable.refused"
    case .dns: "unreachable.dns"
    case .tls: "unreachable.tls"
    case .reset: "unreachable.reset"
    case .other: "unreachable.other"
    }
  }
}

/// What went wrong talking to one SimAdmin device, as PRODUCT §5 maps it.
public enum SimAdminError: LocalizedFailure, Hashable, CustomStringConvertible {
  /// The device wants a session and none could be had (HTTP 401, no stored password).
  case loginRequired
  /// Protection is on but the device has no admin password set (401 `管理员密码尚未设置`):
  /// no stored password can help; one must be set on the device's own web page.
  case passwordNotSet
  /// The password was refused (HTTP 401 on the login call).
  case wrongPassword
  /// HTTP 403.
  case noPermission
  /// The device does not have this endpoint (plain-text 404, or 405).
  case notSupported
  /// No complete response within the timeout.
  case timeout
  /// The device could not be reached.
  case unreachable(UnreachableReason)
  /// The device answered with `{"status":"error"}`; its own text, never translated.
  case upstream(message: String)
  /// The device answered with a redirect (never followed); the host it pointed to.
  case redirected(host: String)
  /// The response was not what SimAdmin sends.
  case malformedResponse(String)
  /// A 2xx `ok` answer without what its route promises (``RouteShapes``); the dotted path of
  /// the missing part, e.g. `data.messages`.
  case missingField(String)
  /// The response exceeded the size cap (bytes) and was abandoned while arriving.
  case tooLarge(limit: Int)
  /// Any other HTTP status.
  case httpStatus(Int)
  /// The instance's origin is not `http(s)://host[:port]`.
  case invalidOrigin(String)
  /// The caller cancelled the request.
  case cancelled
  /// This computer, not the device, failed: out of file descriptors (`EMFILE`, `ENFILE`),
  /// memory or buffers. Never a device's status; the command fails with it instead.
  case localResource(String)
  /// The phone's owner has not allowed the app on the local network (iOS asks once, then
  /// keeps the answer in Settings › Privacy & Security › Local Network): nothing reached the
  /// device, which may be up or down.
  case localNetworkDenied

  /// The device error of the same name as the transport's.
  public init(_ error: HTTPTransportError) {
    switch error {
    case .timeout: self = .timeout
    case .unreachable(let reason): self = .unreachable(reason)
    case .tooLarge(let limit): self = .tooLarge(limit: limit)
    case .malformedResponse(let detail): self = .malformedResponse(detail)
    case .invalidOrigin(let origin): self = .invalidOrigin(origin)
    case .cancelled: self = .cancelled
    case .localResource(let detail): self = .localResource(detail)
    case .localNetworkDenied: self = .localNetworkDenied
    }
  }

  /// Whether the failure is this computer's, not the device's.
  public var isLocal: Bool {
    switch self {
    case .localResource, .localNetworkDenied: true
    default: false
    }
  }

  /// The catalogue key of the plain-language reason.
  public var reasonKey: String {
    switch self {
    case .loginRequired: "error.loginRequired"
    case .passwordNotSet: "error.passwordNotSet"
    case .wrongPassword: "error.wrongPassword"
    case .noPermission: "error.noPermission"
    case .notSupported: "error.notSupported"
    case .timeout: "error.timeout"
    case .unreachable(let reason): reason.reasonKey
    case .upstream: "error.upstream"
    case .redirected: "error.redirected"
    case .malformedResponse: "error.malformedResponse"
    case .missingField: "error.missingField"
    case .tooLarge: "error.tooLarge"
    case .httpStatus: "error.httpStatus"
    case .invalidOrigin: "error.invalidOrigin"
    case .cancelled: "error.cancelled"
    case .localResource: "error.localResource"
    case .localNetworkDenied: "error.localNetworkDenied"
    }
  }

  /// Placeholder values for the reason text.
  public var arguments: [String: String] {
    switch self {
    case .unreachable(.other(let detail)): ["detail": detail]
    case .upstream(let message): ["message": message]
    case .redirected(let host): ["host": host]
    case .malformedResponse(let detail): ["detail": detail]
    case .missingField(let path): ["path": path]
    case .tooLarge(let limit): ["limit": String(limit)]
    case .httpStatus(let code): ["code": String(code)]
    case .invalidOrigin(let origin): ["origin": origin]
    case .localResource(let detail): ["detail": detail]
    default: [:]
    }
  }

  /// The plain-language reason in `language`; a device's own message stays as it was sent.
  public func localizedMessage(_ language: AppLanguage) -> String {
    SimAdminClientStrings.text(reasonKey, language, arguments)
  }

  /// The last part of the reason key: `timeout`, `refused`, `httpStatus` …
  public var failureCode: String { FailureCode.of(key: reasonKey) }

  /// The reason in English.
  public var description: String { localizedMessage(.english) }
}
