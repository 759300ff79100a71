import CommandLineKit
import Foundation

extension ValueCompletion {
  /// An instance: its name or an id prefix.
  public static let instance = ValueCompletion(rawValue: "instance")
  /// An instance group's name.
  public static let group = ValueCompletion(rawValue: "group")
  /// A tag given to instances.
  public static let tag = ValueCompletion(rawValue: "tag")
  /// A conversation peer (a phone number or a sender name) from the message archive.
  public static let peer = ValueCompletion(rawValue: "peer")
}

/// Where the values of one ``ValueCompletion`` kind come from, for the shells' Tab key.
///
/// `values` reads the data directory only (never a device) and must be quick: it runs on
/// every Tab press. It returns nothing rather than failing (no data directory yet, an older
/// database).
public struct ValueCompleter: Sendable {
  /// The kind it answers for.
  public let kind: ValueCompletion
  /// The values starting with the typed prefix, from the data directory.
  public let values: @Sendable (_ dataDirectory: URL, _ prefix: String) -> [CompletionCandidate]

  /// A completer for `kind`.
  public init(
    _ kind: ValueCompletion,
    values: @escaping @Sendable (_ dataDirectory: URL, _ prefix: String) -> [CompletionCandidate]
  ) {
    self.kind = kind
    self.values = values
  }
}
