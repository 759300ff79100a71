import Essentials
import Foundation

/// A ``SimAdminError`` together with the instance and endpoint it happened on.
public struct SimAdminFailure: LocalizedFailure, Hashable, CustomStringConvertible {
  /// The instance's name (or id).
  public var instance: String
  /// Method and path template, e.g. `GET /api/sms/list`.
  public var endpoint: String
  /// What went wrong.
  public var error: SimAdminError

  /// A failure of `endpoint` on `instance`.
  public init(instance: String, endpoint: String, error: SimAdminError) {
    self.instance = instance
    self.endpoint = endpoint
    self.error = error
  }

  /// The catalogue key of the plain-language reason.
  public var reasonKey: String { error.reasonKey }

  /// `"<instance>: <endpoint> failed: <reason>"` in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    SimAdminClientStrings.text(
      "failure.message", language,
      ["instance": instance, "endpoint": endpoint, "reason": error.localizedMessage(language)])
  }

  /// The error's code.
  public var failureCode: String { error.failureCode }

  /// The message in English.
  public var description: String { localizedMessage(.english) }
}
