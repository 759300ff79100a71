import Essentials
import Foundation

/// A Fleet command's refusal, explained in either language; nothing was written.
public struct FleetFailure: LocalizedFailure, CustomStringConvertible {
  /// The catalogue key.
  public let key: String
  /// Placeholder values.
  public let arguments: [String: String]

  /// A failure with the catalogue text `key`.
  public init(_ key: String, _ arguments: [String: String] = [:]) {
    self.key = key
    self.arguments = arguments
  }

  /// The message in `language`.
  public func localizedMessage(_ language: AppLanguage) -> String {
    FleetStrings.text(key, language, arguments)
  }

  /// The last part of the catalogue key.
  public var failureCode: String { FailureCode.of(key: key) }

  /// The English message.
  public var description: String { localizedMessage(.english) }
}
