import Foundation

/// What a failed `POST /api/sms/send` proves about the message.
///
/// SimAdmin's send waits for the modem with no time limit, one send at a time, and answers
/// only when the modem is done; a client that gives up cancels the device's handler, so the SMS
/// may go out without the device keeping a row (SIMADMIN-API §6, docs/upstream.md). Only a
/// failure that proves nothing reached the send handler, or the device's own refusal, is a
/// known outcome; anything else leaves it unknown, and a message of unknown outcome is never
/// sent again without the user's explicit choice.
public enum SendFailureMeaning: Sendable, Equatable {
  /// The device said no (`{"status":"error"}`): it stored nothing and sent nothing.
  case refused
  /// The request never reached the send handler: nothing was sent.
  case notSent
  /// It may have reached the device: the outcome is unknown.
  case unknown

  /// What `error`, from a send, proves.
  public init(_ error: SimAdminError) {
    switch error {
    case .upstream: self = .refused
    case .unreachable(.refused), .unreachable(.dns), .unreachable(.tls), .invalidOrigin,
      .loginRequired, .wrongPassword, .passwordNotSet, .noPermission, .notSupported, .redirected:
      self = .notSent
    case .timeout, .cancelled, .unreachable, .malformedResponse, .missingField, .tooLarge,
      .httpStatus, .localResource:
      self = .unknown
    }
  }

  /// Seconds a send waits for the device's answer by default: longer than other requests',
  /// since giving up earlier cancels the device's handler and leaves the outcome unknown.
  public static let defaultWait: TimeInterval = 60
}
