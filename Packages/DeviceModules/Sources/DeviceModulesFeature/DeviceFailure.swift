import Essentials
import SimAdminClient

/// A device command that could not be carried out, in either language.
public enum DeviceFailure: LocalizedFailure, CustomStringConvertible {
  /// The device refused or could not be reached; the client's own explanation.
  case upstream(SimAdminFailure)
  /// A catalogue message of this package with its placeholder values.
  case message(key: String, arguments: [String: String])

  /// The explanation in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    switch self {
    case .upstream(let failure): failure.localizedMessage(language)
    case .message(let key, let arguments):
      DeviceModulesStrings.text(key, language, arguments)
    }
  }

  /// The client's code, or the last part of the catalogue key.
  public var failureCode: String {
    switch self {
    case .upstream(let failure): failure.failureCode
    case .message(let key, _): FailureCode.of(key: key)
    }
  }

  /// The English explanation.
  public var description: String { localizedMessage(.english) }
}
